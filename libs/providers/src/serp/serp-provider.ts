import type { DfsSerpResult } from './serp.types';

/**
 * The SERP port of rank collection (docs/rank-collection.md): Google Organic through the
 * provider's standard queue — post tasks, list the finished ones, fetch one. Adapters:
 * DataForSEO (`DataForSeoSerpProvider`) and the offline sandbox (`SandboxSerpProvider`).
 * What a SERP says about a project is `serpCheck` (serp.mapping.ts), a pure function.
 */
export interface SerpTaskRequest {
  /** The caller's id of the task, echoed by tasks_ready (≤ 255 characters). */
  tag: string;
  keyword: string;
  locationCode: number;
  languageCode: string;
  device: 'desktop' | 'mobile';
  /** Results wanted (RANK_CHECK_DEPTH). */
  depth: number;
  /** The project's domain: not sent upstream; the sandbox places it in its SERPs. */
  target: string;
  /**
   * Where the provider POSTs the result when the task completes (`postback_url`, with
   * `postback_data: "advanced"`); absent: collected through tasks_ready and task_get.
   */
  postbackUrl?: string;
}

/** What the provider said to one posted task. `cost`: USD charged for it (0 when refused). */
export type SerpPosted =
  | { tag: string; ok: true; taskId: string; cost: number }
  | {
      tag: string;
      ok: false;
      refused: boolean;
      code: number | null;
      message: string;
      cost: number;
    };

/**
 * DataForSEO's list price of one Google Organic standard-queue task at normal priority: the
 * first page of 10 results $0.0006, each further page 75 % of it, $0.00045
 * (collectors-wire.md §2). The post answer's `cost` is the authority; this prices only a task
 * whose post answer was lost (adopted from tasks_ready), so the ledger still holds it.
 */
export function serpTaskListPrice(depth: number): number {
  const pages = Math.max(1, Math.ceil(depth / 10));
  return Math.round((0.0006 + (pages - 1) * 0.00045) * 1e6) / 1e6;
}

export interface SerpReadyTask {
  id: string;
  tag: string | null;
}

/**
 * One task's state: `done` with its advanced result; `pending` (40601/40602); `no_results`
 * (40102); `refused` (405xx field errors: do not retry); `failed` (anything else: retry).
 */
export type SerpTaskAnswer =
  | { kind: 'done'; result: DfsSerpResult }
  | { kind: 'pending' }
  | { kind: 'no_results' }
  | { kind: 'refused'; code: number; message: string }
  | { kind: 'failed'; code: number | null; message: string };

/** The provider endpoint name tasks are charged under (provider-spend ledger and metrics). */
export const SERP_TASK_POST_ENDPOINT = 'serp/google/organic/task_post';

/** Most tasks in one task_post request (collectors-wire.md §1.1). */
export const SERP_TASKS_PER_POST = 100;

export abstract class SerpProvider {
  abstract readonly name: 'dataforseo' | 'sandbox';

  /** Posts the tasks (in requests of at most 100); one answer per task, in order. */
  abstract postTasks(tasks: SerpTaskRequest[]): Promise<SerpPosted[]>;

  /** Finished tasks not collected yet. Throws when the provider cannot be asked. */
  abstract tasksReady(): Promise<SerpReadyTask[]>;

  /** One task's state and, when done, its result (free, repeatable). */
  abstract taskGet(id: string): Promise<SerpTaskAnswer>;
}

/** 405xx: the request's fields were refused (collectors-wire.md §1.3): never retried. */
export const isFieldError = (code: number | null | undefined): boolean =>
  typeof code === 'number' && code >= 40500 && code < 40600;
