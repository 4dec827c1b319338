import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertDocumented } from './document.ts';
import { toLinkQuery } from './link-query.ts';

it('a shown route missing from the operations table stops the start, naming it', () => {
  assert.throws(
    () => assertDocumented({ method: 'POST', url: '/api/v1/file/:fileId/frobnicate', schema: {} }),
    /POST \/api\/v1\/file\/:fileId\/frobnicate is not in src\/http\/openapi\/operations\.ts/,
  );
  assert.throws(() => assertDocumented({ method: ['GET', 'PUT'], url: '/healthz' }), /PUT \/healthz/);
  // Documented, hidden on purpose, preflights, and the HEAD Fastify adds beside a GET pass.
  assertDocumented({ method: 'GET', url: '/api/v1/file/:fileId' });
  assertDocumented({ method: ['GET', 'HEAD'], url: '/blob/v1/files/:fileId' });
  assertDocumented({ method: 'GET', url: '/docs/static/*', schema: { hide: true } });
  assertDocumented({ method: 'OPTIONS', url: '/blob/v1/*' });
  assertDocumented({ method: 'HEAD', url: '/api/v1/user' });
});

it("a route whose configuration says another access than the table's stops the start", () => {
  // login is configured public (app credentials, no token): without that it would need a token.
  assertDocumented({ method: 'POST', url: '/api/v1/auth/login', config: { public: true } });
  assert.throws(
    () => assertDocumented({ method: 'POST', url: '/api/v1/auth/login' }),
    /POST \/api\/v1\/auth\/login is 'app'.*needs a token/,
  );
  assert.throws(
    () => assertDocumented({ method: 'POST', url: '/api/v1/file', config: { public: true } }),
    /POST \/api\/v1\/file is 'user'.*is public/,
  );
});

it('a link route of no known kind of link stops the start', () => {
  assert.throws(
    () => toLinkQuery('GET', '/blob/v1/elsewhere/:id'),
    /GET \/blob\/v1\/elsewhere\/:id is a link route of no kind/,
  );
  assert.deepEqual(toLinkQuery('PUT', '/blob/v1/files/:fileId').required, ['exp', 'kid', 'sig']);
  assert.deepEqual(toLinkQuery('GET', '/blob/v1/files/:fileId').required, [
    'exp',
    'gen',
    'ver',
    'kid',
    'sig',
  ]);
});
