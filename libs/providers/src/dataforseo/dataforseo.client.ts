import { Logger } from '@nestjs/common';
import { DfsEnvelope, DfsTask } from './dataforseo.types';

interface DataForSeoClientOptions {
  baseUrl: string;
  login: string;
  password: string;
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  /** Retries after the first attempt, on retryable failures only. */
  maxRetries: number;
  /** Backoff before retry n (0-based): backoffMs * 2^n plus a random jitter of up to backoffMs. */
  backoffMs: number;
}

/** Internal status codes worth another attempt (docs/research.md, "The DataForSEO wire …"). */
const RETRYABLE_CODES: ReadonlySet<number> = new Set([
  40103, 40202, 40209, 50000, 50301, 50303, 50401,
]);

/** An upstream call that did not give a usable task. Never shown to clients as is. */
export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * DataForSEO v3 over HTTP: POST one task as a JSON array with Basic auth (or, for the
 * standard queue, `envelope`: up to 100 tasks, or a GET); success only
 * when status_code is 20000 at the top level and in the task. Each attempt has its own
 * timeout (AbortSignal). Retries with exponential backoff and jitter on the retryable
 * codes, HTTP 5xx, timeouts and network errors; fails fast on everything else.
 * Credentials are never logged; upstream messages go to the server log only.
 */
export class DataForSeoClient {
  private readonly logger = new Logger('DataForSEO');
  private readonly authorization: string;

  constructor(
    private readonly options: DataForSeoClientOptions,
    private readonly random: () => number = Math.random,
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    this.authorization = `Basic ${Buffer.from(`${options.login}:${options.password}`, 'utf8').toString('base64')}`;
  }

  /** The first task of a live call, or an UpstreamFailure after the last attempt. */
  async post<R>(path: string, task: Record<string, unknown>): Promise<DfsTask<R>> {
    return this.withRetries(path, this.options.maxRetries, async () => {
      const { status, text } = await this.send('POST', path, [task]);
      return firstTask<R>(status, text);
    });
  }

  /**
   * The whole answer of a standard-queue call (task_post with up to 100 tasks, tasks_ready,
   * task_get), checked at the HTTP and request level only: each task's status is the
   * caller's to read. `retries`: attempts after the first on retryable failures (0 for
   * task_post, where a timed-out attempt may have created its tasks).
   */
  async envelope<R>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown[] | undefined,
    retries: number,
  ): Promise<DfsEnvelope<R>> {
    return this.withRetries(path, retries, async () => {
      const { status, text } = await this.send(method, path, body);
      return checkedEnvelope<R>(status, text);
    });
  }

  /** `once` until it succeeds, a failure is not retryable, or `retries` retries are spent. */
  private async withRetries<T>(path: string, retries: number, once: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      try {
        return await once();
      } catch (e) {
        const failure =
          e instanceof UpstreamFailure ? e : new UpstreamFailure(`unexpected: ${String(e)}`, false);
        const last = !failure.retryable || attempt >= retries;
        const log = {
          path,
          attempt: attempt + 1,
          status_code: failure.statusCode,
          reason: failure.message,
          ms: Date.now() - started,
        };
        if (last) {
          this.logger.warn(log, 'DataForSEO call failed');
          throw failure;
        }
        const delay = Math.round(
          this.options.backoffMs * 2 ** attempt + this.random() * this.options.backoffMs,
        );
        this.logger.warn({ ...log, retry_in_ms: delay }, 'DataForSEO call failed; retrying');
        await this.wait(delay);
      }
    }
  }

  /** One HTTP attempt: its status and body text, or a retryable failure (timeout, network). */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown[] | undefined,
  ): Promise<{ status: number; text: string }> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = {
      Authorization: this.authorization,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      const res = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      return { status: res.status, text: await res.text() };
    } catch (e) {
      const err = e as Error;
      if (signal.aborted || err.name === 'TimeoutError' || err.name === 'AbortError') {
        throw new UpstreamFailure(`timed out after ${this.options.timeoutMs} ms`, true);
      }
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new UpstreamFailure(`network error${cause ? ` (${cause})` : ''}`, true);
    }
  }
}

/** The first task of an answer, checked at the HTTP, request and task level. */
function firstTask<R>(status: number, text: string): DfsTask<R> {
  const body = checkedEnvelope<R>(status, text);
  const first = Array.isArray(body.tasks) ? body.tasks[0] : undefined;
  if (!first) throw new UpstreamFailure('answer has no task', false);
  if (first.status_code !== 20000) throw failureOf(first.status_code, first.status_message, 'task');
  return first;
}

/** An answer checked at the HTTP and request level. */
function checkedEnvelope<R>(status: number, text: string): DfsEnvelope<R> {
  if (status >= 500) throw new UpstreamFailure(`HTTP ${status}`, true);
  let body: DfsEnvelope<R>;
  try {
    body = JSON.parse(text) as DfsEnvelope<R>;
  } catch {
    throw new UpstreamFailure(`HTTP ${status} with a body that is not JSON`, false);
  }
  if (status === 401)
    throw new UpstreamFailure('authentication refused (check DATAFORSEO_LOGIN)', false, 40100);
  if (typeof body !== 'object' || body === null)
    throw new UpstreamFailure('answer is not an object', false);
  if (body.status_code !== 20000) throw failureOf(body.status_code, body.status_message, 'request');
  if (status !== 200) throw new UpstreamFailure(`HTTP ${status}`, false);
  return body;
}

function failureOf(code: unknown, message: unknown, level: string): UpstreamFailure {
  const n = typeof code === 'number' ? code : undefined;
  return new UpstreamFailure(
    `${level} status ${String(code)}: ${typeof message === 'string' ? message.slice(0, 200) : ''}`,
    n !== undefined && RETRYABLE_CODES.has(n),
    n,
  );
}
