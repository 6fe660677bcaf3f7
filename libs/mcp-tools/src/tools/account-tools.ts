import { apiGet } from '../backend';
import { toToolResult } from '../tool-result';
import { COST } from './schemas';
import { READ_ONLY, ToolContext } from './tool-context';

/** GET /usage: the plan and the monthly call meter. */
export function registerAccountTools({ server, api }: ToolContext): void {
  server.registerTool(
    'get_usage',
    {
      title: 'API usage this month',
      description:
        "The account's plan, API calls used (this call included) and allowed this calendar month (UTC), whether it is " +
        'unlimited and resets_at, the date of the next reset (YYYY-MM-DD, the 1st of next month, UTC) (GET /api/v1/usage); ' +
        'meta.key_name is the label of the key in use. Use it before a series of research calls to check the remaining ' +
        'allowance (api_calls_limit - api_calls_used). Once the allowance is used up this call is refused too, like every ' +
        'call but the your-data tools: the error RATE_LIMITED with meta.resets_at (the reset date) and meta.limit (the ' +
        'allowance) is then the answer. ' +
        COST.other,
      annotations: READ_ONLY,
    },
    async (extra) => toToolResult(await apiGet(api, '/usage', undefined, extra.signal)),
  );
}
