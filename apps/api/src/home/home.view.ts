import type { DependencyChecks } from '../health/readiness';

export const HOME_PAGE = 'home/views/home';

/** The model of home/views/home.hbs: where to go, and whether the service is up. */
interface HomePage {
  title: string;
  ready: boolean;
  checks: Array<{ name: string; ok: boolean }>;
}

export function homePage(checks: DependencyChecks): HomePage {
  return {
    title: 'Search-marketing data API',
    ready: checks.postgres === 'ok' && checks.redis === 'ok',
    checks: [
      { name: 'Database', ok: checks.postgres === 'ok' },
      { name: 'Queues and limits (Redis)', ok: checks.redis === 'ok' },
    ],
  };
}
