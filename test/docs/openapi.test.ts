import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

it('GET /docs serves an OpenAPI document with every control-plane endpoint', async () => {
  const response = await fetch(`${server.baseUrl}/docs`);
  assert.equal(response.status, 200);
  const doc = await response.json();
  assert.match(doc.openapi, /^3\./);
  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  assert.deepEqual(operations.sort(), [
    'DELETE /api/v1/file/{fileId}',
    'DELETE /api/v1/file/{fileId}/acl/role/{roleName}',
    'DELETE /api/v1/file/{fileId}/acl/user/{userId}',
    'GET /api/v1/file',
    'GET /api/v1/file/{fileId}',
    'GET /api/v1/user',
    'GET /api/v1/users',
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/logout',
    'POST /api/v1/auth/password',
    'POST /api/v1/auth/refresh',
    'POST /api/v1/auth/signup',
    'POST /api/v1/auth/signup/anonymous',
    'POST /api/v1/file',
    'POST /api/v1/file/{fileId}/acl/email/{email}',
    'POST /api/v1/file/{fileId}/acl/role/{roleName}',
    'POST /api/v1/file/{fileId}/acl/user/{userId}',
    'POST /api/v1/file/{fileId}/verify',
  ]);
});
