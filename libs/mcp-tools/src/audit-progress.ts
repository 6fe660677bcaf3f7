import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** Default pause between two progress notifications of run_site_audit (well under 60 s). */
export const PROGRESS_INTERVAL_MS = 10_000;

/** The part of the SDK's request context that progress reporting uses. */
type ProgressExtra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  '_meta' | 'sendNotification' | 'signal'
>;

/** Smallest step of a notification whose job progress did not move (MCP: progress must increase). */
const STEP = 0.01;

/**
 * Progress notifications of one run_site_audit call, when the client asked for them (a
 * `progressToken`): the first at once when the job is accepted, its message carrying the job
 * id (so a client that gives up early can find the audit again with get_job or list_jobs),
 * then one every `intervalMs` while the call waits, with the latest job record read, and one
 * per record read. A long-poll holds one metered call for up to 60 s, so between its answers
 * the job's percentage is the last one read; each notification still increases `progress`
 * (the job's percentage, or the previous value + 0.01 when it did not move), as MCP requires.
 * Notifications are sent in order and before the result (await `sent()`): a client drops a
 * request's progress handler once its result arrives. Nothing is sent after `stop()` or once
 * the call is cancelled.
 */
export class AuditProgress {
  private readonly token: string | number | undefined;
  private last = -1;
  private record: Record<string, unknown> = {};
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly startedAt: number;

  constructor(
    private readonly extra: ProgressExtra,
    private readonly jobId: string,
    private readonly intervalMs: number = PROGRESS_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.token = extra._meta?.progressToken;
    this.startedAt = now();
  }

  /** Whether the client asked for progress (sent a progress token). */
  get wanted(): boolean {
    return this.token !== undefined;
  }

  /** Sends the first notification (the accepted job) and starts the heartbeat. */
  start(accepted: Record<string, unknown>): void {
    if (!this.wanted) return;
    this.record = accepted;
    this.send(
      `Site audit ${this.jobId} accepted (${String(accepted.status ?? 'queued')}). If this call ends ` +
        `before the audit, find it with get_job {"job_id": "${this.jobId}"} or list_jobs.`,
    );
    this.timer = setInterval(() => this.send(this.describe()), this.intervalMs);
    this.timer.unref?.();
    this.extra.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** A job record was read: notify with it. */
  onRecord = (record: Record<string, unknown>): void => {
    if (!this.wanted) return;
    this.record = record;
    this.send(this.describe());
  };

  /** Stops the heartbeat; nothing is sent afterwards. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Resolves once every notification queued so far has been written. */
  sent(): Promise<unknown> {
    return this.chain;
  }

  private describe(): string {
    const status = String(this.record.status ?? 'queued');
    const pct = Number(this.record.progress);
    const waited = Math.round((this.now() - this.startedAt) / 1000);
    return (
      `Site audit ${this.jobId}: ${status}` +
      (Number.isFinite(pct) ? `, ${pct}% of pages` : '') +
      ` (waited ${waited} s; get_job {"job_id": "${this.jobId}"} finds it later)`
    );
  }

  private send(message: string): void {
    if (this.stopped || this.extra.signal.aborted || this.token === undefined) return;
    const pct = Number(this.record.progress);
    const job = Number.isFinite(pct) ? Math.max(0, Math.min(100, pct)) : 0;
    const terminal = this.record.status === 'complete' || this.record.status === 'failed';
    let progress = job > this.last ? job : Math.round((this.last + STEP) * 100) / 100;
    // Below 100 until the job is complete.
    if (!terminal && progress >= 100) progress = Math.max(this.last, 99.99);
    if (progress <= this.last) return;
    this.last = progress;
    const params = { progressToken: this.token, progress, total: 100, message };
    this.chain = this.chain
      .then(() => this.extra.sendNotification({ method: 'notifications/progress', params }))
      .catch(() => undefined);
  }
}
