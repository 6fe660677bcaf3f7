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
        "The account's plan, API calls used and allowed this calendar month, whether it is unlimited and the reset date " +
        '(GET /api/v1/usage); meta.key_name is the label of the key in use. Use it before a series of research calls to ' +
        'check the remaining allowance. ' +
        COST.other,
      annotations: READ_ONLY,
    },
    async (extra) => toToolResult(await apiGet(api, '/usage', undefined, extra.signal)),
  );
}
