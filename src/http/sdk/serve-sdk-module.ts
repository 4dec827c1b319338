import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { notFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';

const builtSdkDir = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'sdk');
const hashedName = /^coffer-client-[0-9a-f]{12}\.js$/;

/**
 * Public code that any page may import, from any origin: a module script is fetched with CORS,
 * so without the allow-origin header no other site could load it. It carries no credential.
 */
function asModule(reply: FastifyReply): FastifyReply {
  return reply
    .type('text/javascript; charset=utf-8')
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
}

/**
 * GET /sdk/coffer-client.js: @coffer/client as one ES module (scripts/build-sdk.ts), for a plain
 * `<script type="module">` page. Revalidated on every use (no-cache + ETag: a server upgrade
 * reaches pages at once); its Content-Location names the same bytes under a hashed name,
 * /sdk/coffer-client-<hash>.js, which is cached for good, for pages that pin a build.
 */
export const serveSdkModule: RouteRegistrar = (app) => serveSdkFrom(builtSdkDir)(app);

export const serveSdkFrom = (sdkDir: string) => (app: Parameters<RouteRegistrar>[0]) => {
  app.get('/sdk/coffer-client.js', { schema: { hide: true } }, async (request, reply) => {
    const built = await readBuilt(sdkDir);
    const etag = `"${createHash('sha256').update(built.bytes).digest('base64url').slice(0, 22)}"`;
    asModule(reply)
      .header('cache-control', 'no-cache')
      .header('etag', etag)
      .header('content-location', `/sdk/${built.hashedName}`);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(built.bytes);
  });
  app.get('/sdk/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const bytes = hashedName.test(name) ? await readFile(path.join(sdkDir, name)).catch(() => null) : null;
    if (!bytes) throw notFound('SDK build (this server serves /sdk/coffer-client.js and its hashed name)');
    return asModule(reply).header('cache-control', 'public, max-age=31536000, immutable').send(bytes);
  });
};

async function readBuilt(sdkDir: string): Promise<{ bytes: Buffer; hashedName: string }> {
  const bytes = await readFile(path.join(sdkDir, 'coffer-client.js')).catch(() => null);
  const names = await readdir(sdkDir).catch(() => [] as string[]);
  const hashed = names.find((name) => hashedName.test(name));
  if (!bytes || !hashed) throw notFound('SDK build: run `npm install` (or `node scripts/build-sdk.ts`)');
  return { bytes, hashedName: hashed };
}
