import type { Application } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';

/** One registered route path and the methods it answers. */
interface RouteMethods {
  matches: MatchFunction<Partial<Record<string, string | string[]>>>;
  methods: Set<string>;
}

/** Per Express app: its routes, read once from its router after they are all registered. */
const indexes = new WeakMap<Application, RouteMethods[]>();

interface RouterLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
}

/** The router's routes grouped by path (Express 5 keeps them as layers of `app.router`). */
function indexOf(app: Application): RouteMethods[] {
  let index = indexes.get(app);
  if (index) return index;
  const stack = ((app as unknown as { router?: { stack?: RouterLayer[] } }).router?.stack ??
    []) as RouterLayer[];
  const byPath = new Map<string, Set<string>>();
  for (const layer of stack) {
    const path = layer.route?.path;
    if (typeof path !== 'string') continue;
    const methods = byPath.get(path) ?? new Set<string>();
    for (const [method, on] of Object.entries(layer.route?.methods ?? {}))
      if (on && method !== '_all') methods.add(method.toUpperCase());
    byPath.set(path, methods);
  }
  index = [...byPath].map(([path, methods]) => ({
    matches: match(path, { decode: false, end: true }),
    methods,
  }));
  indexes.set(app, index);
  return index;
}

/**
 * The methods the app answers on `path` (HEAD wherever GET is), sorted; empty when no route
 * has that path under any method. For the 404 of a method the path does not have.
 */
export function allowedMethods(app: Application | undefined, path: string): string[] {
  if (!app) return [];
  const methods = new Set<string>();
  for (const route of indexOf(app)) {
    if (!route.matches(path)) continue;
    for (const m of route.methods) methods.add(m);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
