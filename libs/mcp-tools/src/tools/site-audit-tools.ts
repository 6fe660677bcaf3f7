import { z } from 'zod';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { AuditProgress } from '../audit-progress';
import { ToolBackend, apiGet, apiPost } from '../backend';
import { PROGRESS_MAX_WAIT_MS, PollOutcome, pollJob } from '../job-poller';
import { errorResult, successResult, toToolResult } from '../tool-result';
import { registerListJobs } from './job-list-tool';
import { COST, jobId, siteAuditArgs } from './schemas';
import { READ_ONLY, ToolContext } from './tool-context';

/** What the job record holds, with units. */
const JOB_UNITS =
  'progress 0-100 (percent); total_score (technical SEO) and geo_score (readiness for AI answers) 0-100; issues ' +
  'counts critical, warning, total; created_at, updated_at and completed_at are YYYY-MM-DD HH:MM:SS (UTC).';
const AUDIT_COST =
  'Cost: research call. Uses one site-audit crawl of the monthly crawl count and pages of the rolling page budget ' +
  '(QUOTA_EXCEEDED when either is used up; never spends credits) and counts as one API call.';
const POLL_COST =
  'It waits with long-polls (GET /jobs/{job_id}?wait=60, answered as soon as the audit ends): each is one API ' +
  'call however long it waits, so an audit usually costs 2-3 calls in all.';
const PROGRESS_NOTE =
  'With a progress token it sends progress at once (the job_id in the message) and then about every 10 s, and ' +
  `waits up to max_wait_seconds (default ${PROGRESS_MAX_WAIT_MS / 1000}); without one it returns within the ` +
  'configured wait (default 50 s) with the job_id and current status. Cancelling the call, or a client timeout, ' +
  'stops the waiting at once, not the crawl: find the audit again with get_job or list_jobs.';

type Args = { url: string; max_pages?: number; depth?: number };

function start(api: ToolBackend, args: Args, signal: AbortSignal) {
  const body: Args = { url: args.url };
  if (args.max_pages !== undefined) body.max_pages = args.max_pages;
  if (args.depth !== undefined) body.depth = args.depth;
  return apiPost(api, '/site-audit', body, signal);
}

/** The request context the SDK hands a tool handler (abort signal, progress token, notifications). */
type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type RunArgs = Args & { poll_interval_seconds?: number; max_wait_seconds?: number };

const STARTS_A_CRAWL = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
} as const;

/** Site audits: start (202 + job), read the job, or start and wait with bounded polling. */
export function registerSiteAuditTools(context: ToolContext): void {
  registerStartSiteAudit(context);
  registerGetJob(context);
  registerRunSiteAudit(context);
  registerListJobs(context);
}

/** start_site_audit: POST /site-audit, answering at once with the queued job. */
function registerStartSiteAudit({ server, api }: ToolContext): void {
  server.registerTool(
    'start_site_audit',
    {
      title: 'Start a site audit',
      description:
        'Starts an asynchronous technical SEO crawl of a website (POST /api/v1/site-audit) and returns at once with a ' +
        'job_id (status queued). Crawls typically take 1-5 minutes: call get_job with wait_seconds 60 (it answers ' +
        `as soon as the audit ends), or use run_site_audit to start and wait in one call. ${AUDIT_COST}`,
      inputSchema: siteAuditArgs,
      annotations: STARTS_A_CRAWL,
    },
    async (args, extra) => toToolResult(await start(api, args, extra.signal)),
  );
}

/** get_job: GET /jobs/{job_id}, optionally long-polling until the job ends. */
function registerGetJob({ server, api }: ToolContext): void {
  server.registerTool(
    'get_job',
    {
      title: 'Job status and result',
      description:
        'The record of an asynchronous job such as a site audit (GET /api/v1/jobs/{job_id}): status queued, running ' +
        '(progress 0-100), complete (data holds audit_id, pages_crawled, total_score, geo_score, issue counts and ' +
        'report_url) or failed (error holds the reason). Units: ' +
        JOB_UNITS +
        ' With wait_seconds (recommended: 60) it waits up to that ' +
        'long for complete or failed and answers as soon as the job ends: one call however long it waits. ' +
        `${COST.other}`,
      inputSchema: {
        job_id: jobId,
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(60)
          .optional()
          .describe('Wait up to this many seconds for the job to end (0-60, default 0)'),
      },
      annotations: READ_ONLY,
    },
    async (args, extra) =>
      toToolResult(
        await apiGet(
          api,
          `/jobs/${encodeURIComponent(args.job_id)}`,
          args.wait_seconds ? { wait: args.wait_seconds } : undefined,
          extra.signal,
        ),
      ),
  );
}

/** run_site_audit: start_site_audit, then wait for the job within a bounded budget. */
function registerRunSiteAudit(context: ToolContext): void {
  context.server.registerTool(
    'run_site_audit',
    {
      title: 'Run a site audit and wait',
      description:
        'Starts a site audit like start_site_audit, then waits for its job (long-poll) until it is complete or ' +
        'failed or the wait budget is used up. Returns the job record; when the wait ends first, it returns the latest record with ' +
        'finished=false and a "still running" note: call get_job later with the job_id. Units: ' +
        JOB_UNITS +
        ' ' +
        `${PROGRESS_NOTE} ${AUDIT_COST} ${POLL_COST}`,
      inputSchema: {
        ...siteAuditArgs,
        poll_interval_seconds: z
          .number()
          .int()
          .min(5)
          .max(60)
          .optional()
          .describe(
            'Seconds to pause before asking again when the API answers a wait early without a final state ' +
              `(its waiting limits; default ${context.pollIntervalMs / 1000})`,
          ),
        max_wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(600)
          .optional()
          .describe(
            `Longest wait for completion in seconds: default ${PROGRESS_MAX_WAIT_MS / 1000} when the client follows ` +
              `progress (progress token), else ${context.maxWaitMs / 1000}, which is also the most without a ` +
              'progress token (MCP clients often time out calls after about 60 seconds)',
          ),
      },
      annotations: STARTS_A_CRAWL,
    },
    (args, extra) => runSiteAudit(context, args, extra),
  );
}

/**
 * Starts the audit and waits for its job with long-polls, reporting progress (first at once with
 * the job id, then about every 10 s); the final (or latest) record. Without a progress token the
 * wait is bounded by the configured maximum, so the answer comes before a client's timeout.
 */
async function runSiteAudit(
  context: ToolContext,
  args: RunArgs,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const { api } = context;
  const started = await start(api, args, extra.signal);
  if (!started.ok) return errorResult(started);
  const accepted = (started.data ?? {}) as Record<string, unknown>;
  const id = String(accepted.job_id ?? '');
  const progress = new AuditProgress(extra, id, context.progressIntervalMs);
  progress.start(accepted);
  const requested = args.max_wait_seconds !== undefined ? args.max_wait_seconds * 1000 : undefined;
  const maxWaitMs = progress.wanted
    ? (requested ?? PROGRESS_MAX_WAIT_MS)
    : Math.min(requested ?? context.maxWaitMs, context.maxWaitMs);
  try {
    const outcome = await pollJob(api, id, {
      intervalMs:
        args.poll_interval_seconds !== undefined
          ? args.poll_interval_seconds * 1000
          : context.pollIntervalMs,
      maxWaitMs,
      longPollSeconds: context.longPollSeconds,
      signal: extra.signal,
      sleep: context.sleep,
      onRecord: progress.onRecord,
    });
    progress.stop();
    await progress.sent();
    return auditResult(id, accepted, started.meta, outcome);
  } finally {
    progress.stop();
  }
}

function auditResult(
  id: string,
  accepted: Record<string, unknown>,
  startMeta: Record<string, unknown>,
  outcome: PollOutcome,
): CallToolResult {
  const record = outcome.record ?? accepted;
  const facts = {
    job_id: id,
    finished: outcome.finished,
    polls: outcome.polls,
    waited_seconds: Math.round(outcome.waitedMs / 1000),
  };
  if (outcome.failure) {
    return errorResult(outcome.failure, {
      ...facts,
      last_record: record,
      note: `The audit was started (job ${id}) but polling stopped on an error; call get_job with this job_id later.`,
    });
  }
  const status = String(record.status);
  let note: string;
  if (outcome.finished && status === 'complete') note = `Site audit ${id} is complete.`;
  else if (outcome.finished) note = `Site audit ${id} failed: see data.error.`;
  else {
    const progress = record.progress !== undefined ? `, progress ${String(record.progress)}%` : '';
    note =
      `Site audit ${id} is still running (status ${status}${progress}) after waiting ${facts.waited_seconds} s. ` +
      'Call get_job with this job_id and wait_seconds 60; each call counts as one API call.';
  }
  return successResult({ ok: true, status: 200, data: record, meta: startMeta }, note, facts);
}
