import type { FastifyInstance } from 'fastify';
import { methodNotAllowed } from '../../errors/errors.ts';

/** One registered URL pattern, as a matcher, with the methods routed to it. */
type RoutedPattern = { matches: RegExp; methods: Set<string>; wildcard: boolean };

/**
 * RFC 9110 §15.5.6: a known URL asked with a method it does not take answers 405 with an
 * `Allow` header listing the methods it does take, instead of the router's 404. Both planes,
 * and every other route of the app: it learns the routes as they are registered (install it
 * before any), and looks only at requests the router found no route for.
 *
 * What makes a URL known: a route with a static or `:param` pattern. A wildcard (`/*`) does
 * not: the preflight answerers (`OPTIONS /api/v1/*`, `/blob/v1/*`) take every URL, and the
 * static folders behind one (`/docs/*`, `/console/*`) may hold no such file. Once a URL is
 * known, a wildcard route's OPTIONS is in its Allow, since the URL answers it (CORS preflight
 * and tus discovery keep their own routes, unchanged).
 */
export function installMethodNotAllowed(app: FastifyInstance): void {
  const patterns = new Map<string, RoutedPattern>();
  app.addHook('onRoute', (route) => {
    const url = withoutTrailingSlash(route.url ?? route.path);
    const matches = toMatcher(url);
    if (!matches) return;
    const routed = patterns.get(url) ?? { matches, methods: new Set<string>(), wildcard: url.endsWith('*') };
    for (const method of [route.method].flat()) routed.methods.add(method);
    patterns.set(url, routed);
  });
  app.addHook('onRequest', async (request) => {
    // An OPTIONS the preflight routes do not take keeps the router's 404.
    if (!request.is404 || request.method === 'OPTIONS') return;
    const allowed = allowedMethods(patterns.values(), withoutTrailingSlash(request.url.split('?')[0] ?? ''));
    // A URL the router refused for its own method (should one reach here) stays a 404 too.
    if (allowed.length === 0 || allowed.includes(request.method)) return;
    throw methodNotAllowed(allowed);
  });
}

/** The methods the URL's routes take; none when no static or parametric pattern matches it. */
function allowedMethods(patterns: Iterable<RoutedPattern>, path: string): string[] {
  const matched = [...patterns].filter((pattern) => pattern.matches.test(path));
  const known = matched.filter((pattern) => !pattern.wildcard);
  if (known.length === 0) return [];
  const methods = new Set(known.flatMap((pattern) => [...pattern.methods]));
  if (matched.some((pattern) => pattern.wildcard && pattern.methods.has('OPTIONS'))) methods.add('OPTIONS');
  return methodOrder.filter((method) => methods.delete(method)).concat([...methods].sort());
}

/** The order Allow lists them in: the reads first, as servers customarily do. */
const methodOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A route pattern as find-my-way reads it: `:name` is one segment, a final `*` anything.
 * Patterns it cannot read so simply (regular-expression or several parameters in a segment)
 * are left out: such a URL stays a 404, never a wrong 405.
 */
function toMatcher(url: string): RegExp | undefined {
  if (/[()]|:[^/]*:/.test(url)) return undefined;
  const wildcard = url.endsWith('*');
  const fixed = wildcard ? url.slice(0, -1) : url;
  const parts = fixed.split(/(:[A-Za-z_$][\w$]*)/);
  const source = parts
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}${wildcard ? '.*' : ''}$`);
}

/** The router ignores a trailing slash (app.ts's ignoreTrailingSlash), so this does too. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
