import type { FastifyInstance } from 'fastify';

/** The header every response carries, raw client-error answers included (connection-errors.ts). */
export const referrerPolicy = { name: 'referrer-policy', value: 'no-referrer' } as const;

/**
 * security: links carry their signature in the query string, and a page or download opened
 * from one must not hand its URL to the next site as a Referer. The header is set on the raw
 * response as soon as Node hands a request over, before Fastify sees it, so every answer of
 * both planes carries it: errors, 404s, hijacked replies and Fastify's own 503 while closing.
 */
export function installResponseHardening(app: FastifyInstance): void {
  app.server.prependListener('request', (_request, response) => {
    response.setHeader(referrerPolicy.name, referrerPolicy.value);
  });
}

/**
 * security: answers that carry a token or a signed link (login, signup, upload requests, file
 * records with their download link) must not be kept by a browser or shared cache. Every
 * control-plane answer is about one caller, so the whole plane says so.
 */
export function installNoStore(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}
