import { DataForSeoClient, UpstreamFailure } from '../dataforseo/dataforseo.client';
import type { DfsTask } from '../dataforseo/dataforseo.types';
import {
  AiEngine,
  AiEngineProvider,
  AiPromptAnswer,
  AiPromptRequest,
  ENGINE_MODEL,
  ENGINE_SE,
  KeyedLimiter,
} from './ai-engine-provider';

/** `tasks[].result[0]` of LLM Responses (collectors-wire.md §4.1); every field may be missing. */
interface DfsLlmResult {
  model_name?: string | null;
  money_spent?: number | null;
  items?: Array<{
    type?: string | null;
    sections?: Array<{
      type?: string | null;
      text?: string | null;
      annotations?: Array<{ url?: string | null } | null> | null;
    } | null> | null;
  } | null> | null;
}

/** Countries Claude's web search takes (`web_search_country_iso_code`, §4.1). */
const CLAUDE_COUNTRIES = new Set(
  'AR AT AU BE BR CA CH CL CN DE DK ES FI FR GB HK ID IN IT JP KR MX MY NL NO NZ PH PL PT RU SA SE TR TW US ZA'.split(
    ' ',
  ),
);

/** The LLM Responses live request of a prompt: web search on, the market's country. */
export function llmResponsesTask(r: AiPromptRequest): Record<string, unknown> {
  const task: Record<string, unknown> = {
    user_prompt: r.prompt.slice(0, 500),
    model_name: ENGINE_MODEL[r.engine],
    max_output_tokens: 1024,
    tag: r.tag.slice(0, 255),
  };
  // Perplexity's Sonar models always search; its request has no web_search field.
  if (r.engine !== 'perplexity') task.web_search = true;
  const country = r.country.toUpperCase();
  const countryOk =
    r.engine === 'chatgpt' ||
    r.engine === 'perplexity' ||
    (r.engine === 'claude' && CLAUDE_COUNTRIES.has(country));
  if (countryOk && /^[A-Z]{2}$/.test(country)) task.web_search_country_iso_code = country;
  return task;
}

/** A cited URL without tracking parameters (ChatGPT adds `utm_source=openai`). */
export function cleanUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    for (const k of [...u.searchParams.keys()]) if (/^utm_/i.test(k)) u.searchParams.delete(k);
    return u.toString();
  } catch {
    return null;
  }
}

/** The text of the answer's message sections and its annotation URLs (distinct, in order). */
export function answerOf(result: DfsLlmResult): { text: string; urls: string[] } {
  const texts: string[] = [];
  const urls: string[] = [];
  for (const item of result.items ?? []) {
    if (item?.type !== 'message') continue;
    for (const section of item.sections ?? []) {
      if (typeof section?.text === 'string' && section.text.trim()) texts.push(section.text);
      for (const a of section?.annotations ?? []) {
        const url = typeof a?.url === 'string' ? cleanUrl(a.url) : null;
        if (url && !urls.includes(url)) urls.push(url);
      }
    }
  }
  return { text: texts.join('\n\n'), urls };
}

/**
 * DataForSEO's AI Optimization LLM Responses, live (collectors-wire.md §4.1): one task per
 * call to `/v3/ai_optimization/<se>/llm_responses/live`, at most `concurrency` calls in
 * flight per engine (the provider allows 30 per account and platform), each with the
 * client's timeout (live tasks run up to 120 s). A call is never retried here: a live task
 * may be charged even when its answer is lost; the scan asks a failed prompt again at its
 * next interval. The cost is the task's `cost` (DataForSEO's $0.0006 plus the LLM's charge).
 */
export class DataForSeoAiEngineProvider extends AiEngineProvider {
  readonly name = 'dataforseo' as const;
  private readonly limiter: KeyedLimiter;

  constructor(
    private readonly client: DataForSeoClient,
    concurrency: number,
  ) {
    super();
    this.limiter = new KeyedLimiter(concurrency);
  }

  ask(r: AiPromptRequest): Promise<AiPromptAnswer> {
    return this.limiter.run(r.engine, () => this.askNow(r));
  }

  private async askNow(r: AiPromptRequest): Promise<AiPromptAnswer> {
    let task: DfsTask<DfsLlmResult> | undefined;
    try {
      const envelope = await this.client.envelope<DfsLlmResult>(
        'POST',
        livePath(r.engine),
        [llmResponsesTask(r)],
        0,
      );
      task = envelope.tasks?.[0];
    } catch (e) {
      const f = e instanceof UpstreamFailure ? e : new UpstreamFailure(String(e), false);
      return { ok: false, code: f.statusCode ?? null, message: f.message, cost: 0 };
    }
    if (!task) return { ok: false, code: null, message: 'answer has no task', cost: 0 };
    const cost = typeof task.cost === 'number' && task.cost > 0 ? task.cost : 0;
    const result = task.result?.[0];
    if (task.status_code !== 20000 || !result) {
      const message = `task status ${task.status_code}: ${String(task.status_message ?? '').slice(0, 200)}`;
      return { ok: false, code: task.status_code, message, cost };
    }
    const { text, urls } = answerOf(result);
    if (!text) return { ok: false, code: task.status_code, message: 'answer has no text', cost };
    return { ok: true, text, urls, model: result.model_name ?? null, cost };
  }
}

export const livePath = (engine: AiEngine) =>
  `/v3/ai_optimization/${ENGINE_SE[engine]}/llm_responses/live`;
