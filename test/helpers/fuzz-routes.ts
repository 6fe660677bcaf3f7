import { declaredEndpoints } from '@app/gateway';

/** A route of the fuzz suite (test/foundation/fuzz.e2e-spec.ts). */
export interface FuzzRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with `:seg` placeholders filled by the fuzzer (or a valid id). */
  path: string;
  query: string[];
  body: boolean;
}

/** What the fuzz reads of the public document: each operation's parameters. */
export interface ParameterDoc {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
}

/** Query names no route takes, sent to every route with its own. */
const STRAY_QUERY = ['sort', 'from', 'to', 'fields', 'q'];

/** Routes that do not exist: an unknown path, and a known path with a method it lacks. */
const NOT_ROUTES: FuzzRoute[] = [
  { method: 'GET', path: '/api/v1/:seg', query: [], body: false },
  { method: 'POST', path: '/api/v1/backlinks', query: [], body: true },
];

/**
 * The public routes the fuzz walks: every route declared with @Endpoint (so a new route is
 * fuzzed without editing the suite), with the query parameters the document gives it and
 * those of its code sample, plus stray names and routes that do not exist.
 */
export function publicFuzzRoutes(doc: ParameterDoc): FuzzRoute[] {
  const routes = declaredEndpoints().map((e): FuzzRoute => {
    const documented = (doc.paths[e.path]?.[e.method]?.parameters ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => p.name);
    const sampled = Object.keys(e.declaration.sample.query ?? {});
    return {
      method: e.method.toUpperCase() as FuzzRoute['method'],
      path: e.path.replace(/\{[^}]+\}/g, ':seg'),
      query: [...new Set([...documented, ...sampled, ...STRAY_QUERY])],
      body: e.method === 'post' || e.method === 'patch',
    };
  });
  return [...routes, ...NOT_ROUTES];
}
