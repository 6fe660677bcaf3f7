import { plainDate, seededRandom } from '@app/core';
import {
  AiEngineProvider,
  AiPromptAnswer,
  AiPromptRequest,
  KeyedLimiter,
} from './ai-engine-provider';

const PRAISE = ['is a great choice', 'is well reviewed', 'offers excellent value', 'is reliable'];
const NEUTRAL = ['is another option', 'is often listed', 'sells a similar range', 'is known too'];
const CRITIC = [
  'has poor support',
  'is overpriced',
  'gets mixed reviews',
  'had disappointing quality',
];
const SOURCES = ['reviewhub.example', 'buyersguide.example', 'forum.example'];

/**
 * The offline AI-engine adapter (docs/ai-visibility-scans.md, "Embedded default"): free,
 * answered at once and deterministically by engine, prompt and UTC day. Each answer names
 * some of the tracked brands (the project's in about 70 % of answers) in a shuffled order,
 * each in a sentence of praise, neutral or critical tone, and cites some of them and a
 * review site, so scans of `npm start` show moving scores. Limited per engine like the real one.
 */
export class SandboxAiEngineProvider extends AiEngineProvider {
  readonly name = 'sandbox' as const;
  private readonly limiter: KeyedLimiter;

  constructor(
    private readonly now: () => Date = () => new Date(),
    concurrency = 10,
  ) {
    super();
    this.limiter = new KeyedLimiter(concurrency);
  }

  ask(r: AiPromptRequest): Promise<AiPromptAnswer> {
    return this.limiter.run(r.engine, () =>
      Promise.resolve(sandboxAnswer(r, plainDate(this.now()))),
    );
  }
}

/** The sandbox's answer to a prompt on a day (pure). */
export function sandboxAnswer(r: AiPromptRequest, day: string): AiPromptAnswer {
  const rnd = seededRandom(`${r.engine}|${r.prompt}|${day}`);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const named = r.brands.filter((_, i) => rnd() < (i === 0 ? 0.7 : 0.45));
  // Fisher-Yates with the seeded generator: the order of first mention moves day by day.
  for (let i = named.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [named[i], named[j]] = [named[j], named[i]];
  }
  const lines = [`Here is what to consider for "${r.prompt}".`];
  const urls: string[] = [];
  for (const b of named) {
    const tone = rnd();
    lines.push(`${b.name} ${pick(tone < 0.55 ? PRAISE : tone < 0.85 ? NEUTRAL : CRITIC)}.`);
    if (rnd() < 0.4) urls.push(`https://www.${b.domain}/guide/${Math.floor(rnd() * 90) + 10}`);
  }
  if (!named.length) lines.push('Compare a few independent reviews before deciding.');
  urls.push(`https://${pick(SOURCES)}/best-picks`);
  return { ok: true, text: lines.join(' '), urls, model: `sandbox-${r.engine}`, cost: 0 };
}
