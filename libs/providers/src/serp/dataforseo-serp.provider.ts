import { DataForSeoClient, UpstreamFailure } from '../dataforseo/dataforseo.client';
import type { DfsTask } from '../dataforseo/dataforseo.types';
import {
  SERP_TASKS_PER_POST,
  SerpPosted,
  SerpProvider,
  SerpReadyTask,
  SerpTaskAnswer,
  SerpTaskRequest,
  isFieldError,
} from './serp-provider';
import type { DfsReadyResult, DfsSerpResult } from './serp.types';

const BASE = '/v3/serp/google/organic';
/** Retries of the free, repeatable GETs; task_post is never retried (its tasks may exist). */
const GET_RETRIES = 2;

const PENDING: ReadonlySet<number> = new Set([40601, 40602]);
const NO_RESULTS = 40102;

/** DataForSEO's SERP API, Google Organic, standard queue (collectors-wire.md §2.1-2.5). */
export class DataForSeoSerpProvider extends SerpProvider {
  readonly name = 'dataforseo' as const;

  constructor(private readonly client: DataForSeoClient) {
    super();
  }

  async postTasks(tasks: SerpTaskRequest[]): Promise<SerpPosted[]> {
    const answers: SerpPosted[] = [];
    for (let i = 0; i < tasks.length; i += SERP_TASKS_PER_POST) {
      answers.push(...(await this.postBatch(tasks.slice(i, i + SERP_TASKS_PER_POST))));
    }
    return answers;
  }

  /** One task_post of ≤ 100 tasks; the answers matched to the tasks by tag, else by order. */
  private async postBatch(batch: SerpTaskRequest[]): Promise<SerpPosted[]> {
    const body = batch.map((t) => ({
      keyword: t.keyword,
      location_code: t.locationCode,
      language_code: t.languageCode,
      device: t.device,
      depth: t.depth,
      tag: t.tag,
      // Postbacks (docs/rank-collection.md): the result comes to us, no task_get needed.
      ...(t.postbackUrl ? { postback_url: t.postbackUrl, postback_data: 'advanced' } : {}),
    }));
    let tasks: Array<DfsTask<unknown>>;
    try {
      const envelope = await this.client.envelope('POST', `${BASE}/task_post`, body, 0);
      tasks = envelope.tasks ?? [];
    } catch (e) {
      const failure = asFailure(e);
      return batch.map((t) => ({
        tag: t.tag,
        ok: false as const,
        refused: isFieldError(failure.statusCode),
        code: failure.statusCode ?? null,
        message: failure.message,
        cost: 0,
      }));
    }
    const byTag = new Map(tasks.map((t) => [String(t.data?.tag ?? ''), t]));
    return batch.map((t, i) => postedOf(t.tag, byTag.get(t.tag) ?? tasks[i]));
  }

  async tasksReady(): Promise<SerpReadyTask[]> {
    const envelope = await this.client.envelope<DfsReadyResult>(
      'GET',
      `${BASE}/tasks_ready`,
      undefined,
      GET_RETRIES,
    );
    const ready: SerpReadyTask[] = [];
    for (const task of envelope.tasks ?? []) {
      if (task.status_code !== 20000) continue;
      for (const r of task.result ?? []) {
        if (r && typeof r.id === 'string') ready.push({ id: r.id, tag: r.tag ?? null });
      }
    }
    return ready;
  }

  async taskGet(id: string): Promise<SerpTaskAnswer> {
    let task: DfsTask<DfsSerpResult> | undefined;
    try {
      const path = `${BASE}/task_get/advanced/${encodeURIComponent(id)}`;
      const envelope = await this.client.envelope<DfsSerpResult>(
        'GET',
        path,
        undefined,
        GET_RETRIES,
      );
      task = envelope.tasks?.[0];
    } catch (e) {
      const failure = asFailure(e);
      return { kind: 'failed', code: failure.statusCode ?? null, message: failure.message };
    }
    if (!task) return { kind: 'failed', code: null, message: 'answer has no task' };
    return serpTaskAnswer(task);
  }
}

/** What one task of task_get's envelope (or a postback's, the same envelope) says. */
export function serpTaskAnswer(task: DfsTask<DfsSerpResult>): SerpTaskAnswer {
  const code = task.status_code;
  const message = `task status ${code}: ${String(task.status_message ?? '').slice(0, 200)}`;
  if (code === 20000) {
    const result = task.result?.[0];
    return result ? { kind: 'done', result } : { kind: 'failed', code, message: 'no result' };
  }
  if (PENDING.has(code)) return { kind: 'pending' };
  if (code === NO_RESULTS) return { kind: 'no_results' };
  if (isFieldError(code)) return { kind: 'refused', code, message };
  return { kind: 'failed', code, message };
}

function postedOf(tag: string, task: DfsTask<unknown> | undefined): SerpPosted {
  if (!task) return { tag, ok: false, refused: false, code: null, message: 'no task', cost: 0 };
  const cost = typeof task.cost === 'number' && task.cost > 0 ? task.cost : 0;
  if (task.status_code === 20100 && typeof task.id === 'string') {
    return { tag, ok: true, taskId: task.id, cost };
  }
  const message = `task status ${task.status_code}: ${String(task.status_message ?? '').slice(0, 200)}`;
  const refused = isFieldError(task.status_code);
  return { tag, ok: false, refused, code: task.status_code, message, cost };
}

function asFailure(e: unknown): UpstreamFailure {
  return e instanceof UpstreamFailure ? e : new UpstreamFailure(`unexpected: ${String(e)}`, false);
}
