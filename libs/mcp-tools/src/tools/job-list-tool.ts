import { z } from 'zod';
import { apiGet } from '../backend';
import { toToolResult } from '../tool-result';
import { COST, PG_INT_MAX } from './schemas';
import { READ_ONLY, ToolContext } from './tool-context';

/** The definition of list_jobs: description, input schema, annotations. */
const LIST_JOBS = {
  title: 'List site-audit jobs',
  description:
    "The account's asynchronous jobs (site audits), newest first (GET /api/v1/jobs): each the job record " +
    'get_job answers (status, progress, and once complete data.report_url), with meta.total. Use it to find an ' +
    'audit again when its job_id was lost, e.g. after a run_site_audit call timed out (the crawl goes on). ' +
    `${COST.other}`,
  inputSchema: {
    status: z
      .enum(['queued', 'running', 'complete', 'failed'])
      .optional()
      .describe('Only jobs in this state (default: all)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe('Jobs per page, 1-100 (default 20)'),
    offset: z
      .number()
      .int()
      .min(0)
      .max(PG_INT_MAX)
      .optional()
      .describe('Jobs to skip, newest first (default 0)'),
  },
  annotations: READ_ONLY,
};

/** list_jobs: GET /jobs, the account's jobs (site audits) newest first. */
export function registerListJobs({ server, api }: ToolContext): void {
  server.registerTool('list_jobs', LIST_JOBS, async (args, extra) =>
    toToolResult(
      await apiGet(
        api,
        '/jobs',
        { status: args.status, limit: args.limit, offset: args.offset },
        extra.signal,
      ),
    ),
  );
}
