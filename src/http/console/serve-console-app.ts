import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { notFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';

const builtConsoleDir = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'console');
const assetName = /^[\w-]+-[A-Z0-9]{8}\.(js|css)$/;
const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The console's headers: a strict policy with no inline script or style, never framed. */
export const consoleSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; " +
  "frame-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', consoleSecurityPolicy)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer');
}

/**
 * GET /console and its client routes → the built index.html; /console/assets/<hashed name> →
 * the built file, cached for good (its name changes with its content). The console API lives
 * under /console/api and is registered by its own routes, which Fastify matches first.
 */
export const serveConsoleApp: RouteRegistrar = (app) => serveConsoleFrom(builtConsoleDir)(app);

/** The console's routes over a build folder (a test names one that holds no build). */
export const serveConsoleFrom = (consoleDir: string) => (app: Parameters<RouteRegistrar>[0]) => {
  const sendIndex = async (_request: unknown, reply: FastifyReply) => {
    secure(reply).header('cache-control', 'no-store');
    const html = await readFile(path.join(consoleDir, 'index.html'), 'utf8').catch(() => null);
    if (html === null)
      throw new AppError('UNAVAILABLE', 'The console is not built: run `npm run console:build`.');
    return reply.type('text/html; charset=utf-8').send(html);
  };
  app.get('/console', { schema: { hide: true } }, sendIndex);
  app.get('/console/*', { schema: { hide: true } }, async (request, reply) => {
    secure(reply);
    const rest = (request.params as { '*': string })['*'];
    if (rest === 'api' || rest.startsWith('api/')) throw notFound('console API route');
    if (!rest.startsWith('assets/')) return sendIndex(request, reply);
    const name = rest.slice('assets/'.length);
    const match = assetName.exec(name);
    const body = match ? await readFile(path.join(consoleDir, 'assets', name)).catch(() => null) : null;
    if (!match || body === null) throw notFound('console asset');
    return secure(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(contentTypes[match[1]!]!)
      .send(body);
  });
};
