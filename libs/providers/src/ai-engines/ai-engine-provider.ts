/**
 * The AI-engine port of AI-visibility scans (docs/ai-visibility-scans.md): one prompt asked
 * to one engine through DataForSEO's AI Optimization LLM Responses live endpoint, web search
 * on (collectors-wire.md §4.1). Adapters: DataForSEO (`DataForSeoAiEngineProvider`) and the
 * offline sandbox (`SandboxAiEngineProvider`). Each keeps at most its concurrency limit of
 * calls in flight per engine, however many callers ask.
 */
export const AI_ENGINES = ['chatgpt', 'claude', 'gemini', 'perplexity'] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

export const isAiEngine = (v: string): v is AiEngine =>
  (AI_ENGINES as readonly string[]).includes(v);

/** The engine's name in DataForSEO's paths (`/v3/ai_optimization/<se>/llm_responses/live`). */
export const ENGINE_SE: Record<AiEngine, string> = {
  chatgpt: 'chat_gpt',
  claude: 'claude',
  gemini: 'gemini',
  perplexity: 'perplexity',
};

/** The model asked per engine (a base name: DataForSEO resolves it to the latest version). */
export const ENGINE_MODEL: Record<AiEngine, string> = {
  chatgpt: 'gpt-4.1-mini',
  claude: 'claude-sonnet-4-0',
  gemini: 'gemini-2.5-flash',
  perplexity: 'sonar',
};

/** The provider endpoint a prompt is charged under (provider-spend ledger and metrics). */
export const llmResponsesEndpoint = (engine: AiEngine) =>
  `ai_optimization/${ENGINE_SE[engine]}/llm_responses/live`;

export interface AiPromptRequest {
  engine: AiEngine;
  prompt: string;
  /** ISO 3166-1 alpha-2, upper-case: where the engine's web search searches from. */
  country: string;
  /** The caller's id of the task, echoed in `data.tag` (≤ 255 characters). */
  tag: string;
  /** The tracked brands: not sent upstream; the sandbox names them in its answers. */
  brands: Array<{ name: string; domain: string }>;
}

/**
 * What the engine said. `answered`: the text of its message sections (joined by blank
 * lines) and its annotation URLs, distinct, in order. `failed`: the status code (null: no
 * answer at all) and message. `cost`: USD charged for the call either way.
 */
export type AiPromptAnswer =
  | { ok: true; text: string; urls: string[]; model: string | null; cost: number }
  | { ok: false; code: number | null; message: string; cost: number };

export abstract class AiEngineProvider {
  abstract readonly name: 'dataforseo' | 'sandbox';
  abstract ask(request: AiPromptRequest): Promise<AiPromptAnswer>;
}

/**
 * A per-key limit of calls in flight: `run(key, fn)` waits while `limit` calls of the key run
 * (first come, first served).
 */
export class KeyedLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly limit: number) {}

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if ((this.running.get(key) ?? 0) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key) ?? [];
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    } else {
      this.running.set(key, (this.running.get(key) ?? 0) + 1);
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.get(key)?.shift();
      // The slot passes to the next waiter as is; else it is freed.
      if (next) next();
      else this.running.set(key, (this.running.get(key) ?? 1) - 1);
    }
  }

  /** Calls of the key in flight. */
  inFlight(key: string): number {
    return this.running.get(key) ?? 0;
  }
}
