import type { Request } from 'express';
import { metrics } from '@app/core';
import type { ResponseObserver } from '@app/gateway';

/**
 * `http_request_duration_seconds{route,method,status}` for every request, observed when the
 * response closes. `route` is the matched route template (Express `req.baseUrl` + `req.route.path`,
 * e.g. `/api/v1/jobs/:job_id`), or `unmatched`: never the raw URL. Observed on the
 * request-lifecycle middleware's `close` listener (gateway access-log.ts), which times every
 * request from its start.
 */
export function httpMetrics(): ResponseObserver {
  // One labelled child per (route, method, status), kept: prom-client would otherwise hash
  // the label set on every observation. Bounded like the labels themselves.
  const children = new Map<string, { observe(value: number): void }>();
  const child = (route: string, method: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let found = children.get(key);
    if (!found) {
      found = metrics.httpRequestDuration.labels(route, method, String(status));
      children.set(key, found);
    }
    return found;
  };
  return (req, res, seconds) => {
    child(routeTemplate(req), req.method, res.statusCode).observe(seconds);
  };
}

/** The matched route template, or `unmatched` (404s, static files, bodies refused before routing). */
function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return 'unmatched';
  const base = req.baseUrl ?? '';
  const full = `${base}${path === '/' && base ? '' : path}`;
  return full.length > 200 ? 'unmatched' : full;
}
