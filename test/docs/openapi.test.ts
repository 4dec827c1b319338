import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

it('GET /docs/json serves an OpenAPI document with every endpoint of both planes and the probes', async () => {
  const response = await fetch(`${server.baseUrl}/docs/json`);
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
    'DELETE /api/v1/file/{fileId}/hold',
    'DELETE /api/v1/file/{fileId}/multipart',
    'DELETE /api/v1/file/{fileId}/versions/{versionId}',
    'DELETE /api/v1/oauth/{provider}/unlink',
    'DELETE /api/v1/trash/{fileId}',
    'DELETE /api/v1/user',
    'DELETE /api/v1/user/mfa/totp',
    'DELETE /api/v1/user/passkeys/{id}',
    'DELETE /api/v1/user/sessions',
    'DELETE /api/v1/user/sessions/{sessionId}',
    'DELETE /api/v1/webhooks/{webhookId}',
    'DELETE /blob/v1/uploads/{uploadId}',
    'GET /',
    'GET /api/v1/audit',
    'GET /api/v1/events',
    'GET /api/v1/file',
    'GET /api/v1/file/{fileId}',
    'GET /api/v1/file/{fileId}/multipart',
    'GET /api/v1/file/{fileId}/versions',
    'GET /api/v1/folders',
    'GET /api/v1/folders/shares',
    'GET /api/v1/oauth/{provider}',
    'GET /api/v1/oauth/{provider}/callback',
    'GET /api/v1/oauth/{provider}/token',
    'GET /api/v1/shared',
    'GET /api/v1/trash',
    'GET /api/v1/user',
    'GET /api/v1/user/passkeys',
    'GET /api/v1/user/sessions',
    'GET /api/v1/users',
    'GET /api/v1/webhooks',
    'GET /api/v1/webhooks/{webhookId}',
    'GET /api/v1/webhooks/{webhookId}/deliveries',
    'GET /blob/v1/archives/{archiveId}',
    'GET /blob/v1/files/{fileId}',
    'GET /blob/v1/renditions/{fileId}/{spec}',
    'GET /healthz',
    'GET /metrics',
    'GET /readyz',
    'HEAD /blob/v1/archives/{archiveId}',
    'HEAD /blob/v1/files/{fileId}',
    'HEAD /blob/v1/renditions/{fileId}/{spec}',
    'HEAD /blob/v1/uploads/{uploadId}',
    'PATCH /api/v1/file/{fileId}',
    'PATCH /api/v1/webhooks/{webhookId}',
    'PATCH /blob/v1/uploads/{uploadId}',
    'POST /api/v1/archives',
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/logout',
    'POST /api/v1/auth/magic-link',
    'POST /api/v1/auth/magic-link/confirm',
    'POST /api/v1/auth/mfa',
    'POST /api/v1/auth/passkey',
    'POST /api/v1/auth/passkey/options',
    'POST /api/v1/auth/password',
    'POST /api/v1/auth/password-reset',
    'POST /api/v1/auth/password-reset/confirm',
    'POST /api/v1/auth/refresh',
    'POST /api/v1/auth/signup',
    'POST /api/v1/auth/signup/anonymous',
    'POST /api/v1/auth/signup/anonymous/convert',
    'POST /api/v1/auth/verify-email',
    'POST /api/v1/auth/verify-email/confirm',
    'POST /api/v1/file',
    'POST /api/v1/file/delete',
    'POST /api/v1/file/{fileId}/acl/email/{email}',
    'POST /api/v1/file/{fileId}/acl/role/{roleName}',
    'POST /api/v1/file/{fileId}/acl/user/{userId}',
    'POST /api/v1/file/{fileId}/copy',
    'POST /api/v1/file/{fileId}/hold',
    'POST /api/v1/file/{fileId}/links/revoke',
    'POST /api/v1/file/{fileId}/move',
    'POST /api/v1/file/{fileId}/multipart',
    'POST /api/v1/file/{fileId}/multipart/complete',
    'POST /api/v1/file/{fileId}/multipart/sign',
    'POST /api/v1/file/{fileId}/quarantine/release',
    'POST /api/v1/file/{fileId}/verify',
    'POST /api/v1/file/{fileId}/versions',
    'POST /api/v1/file/{fileId}/versions/{versionId}/restore',
    'POST /api/v1/file/{fileId}/versions/{versionId}/verify',
    'POST /api/v1/folders/delete',
    'POST /api/v1/folders/move',
    'POST /api/v1/folders/share',
    'POST /api/v1/folders/unshare',
    'POST /api/v1/trash/empty',
    'POST /api/v1/trash/{fileId}/restore',
    'POST /api/v1/uploads',
    'POST /api/v1/user/email',
    'POST /api/v1/user/email/confirm',
    'POST /api/v1/user/email/revert',
    'POST /api/v1/user/mfa/totp',
    'POST /api/v1/user/mfa/totp/confirm',
    'POST /api/v1/user/passkeys',
    'POST /api/v1/user/passkeys/options',
    'POST /api/v1/webhooks',
    'POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    'POST /api/v1/webhooks/{webhookId}/rotate-secret',
    'POST /api/v1/webhooks/{webhookId}/test',
    'POST /blob/v1/uploads/{uploadId}',
    'PUT /blob/v1/files/{fileId}',
    'PUT /blob/v1/versions/{fileId}',
  ]);
});

it('GET /docs is an interactive reference whose every asset comes from Coffer itself', async () => {
  const page = await fetch(`${server.baseUrl}/docs`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/);
  assert.doesNotMatch(csp, /https:|upgrade-insecure-requests/);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  assert.ok(assets.length >= 3, html);
  for (const asset of assets) {
    assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} would leave the server`);
    const loaded = await fetch(new URL(asset, `${server.baseUrl}/docs/`));
    assert.equal(loaded.status, 200, asset);
    await loaded.arrayBuffer();
  }
  const initializer = await (await fetch(`${server.baseUrl}/docs/static/swagger-initializer.js`)).text();
  assert.match(initializer, /\/docs\/json|\.\/json/);
  // Coffer's name, not the plugin's: the title, and the logo (inline, as the CSP allows).
  assert.match(html, /<title>Coffer API reference<\/title>/);
  assert.doesNotMatch(html, /Fastify|Swagger UI<\/title>/i);
  const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer)?.[1];
  assert.ok(logo, initializer);
  const drawn = Buffer.from(logo, 'base64').toString();
  assert.match(drawn, />Coffer</);
  assert.doesNotMatch(drawn, /fastify/i);
  // The same document under the name clients generators look for.
  const [viaDocs, viaRoot] = await Promise.all(
    ['/docs/json', '/openapi.json'].map(async (path) => (await fetch(`${server.baseUrl}${path}`)).json()),
  );
  assert.deepEqual(viaRoot, viaDocs);
});

it('describes the bytes of the data plane: the upload body, the binary download, their headers', async () => {
  const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  const binary = { type: 'string', format: 'binary' };
  const upload = doc.paths['/blob/v1/files/{fileId}'].put;
  assert.deepEqual(upload.requestBody.content['application/octet-stream'].schema, binary);
  assert.deepEqual(upload.requestBody.content['multipart/form-data'].schema, {
    type: 'object',
    required: ['data'],
    properties: { data: binary },
  });
  assert.ok(upload.requestBody.description);
  assert.deepEqual(upload.responses['200'].headers.ETag.schema, { type: 'string' });
  assert.deepEqual(
    upload.responses['200'].content['application/json'].schema.$ref,
    '#/components/schemas/StoredContent',
  );
  assert.deepEqual(doc.components.schemas.StoredContent.required, ['etag', 'sizeBytes']);

  const download = doc.paths['/blob/v1/files/{fileId}'].get;
  for (const status of ['200', '206']) {
    assert.deepEqual(Object.keys(download.responses[status].content), ['application/octet-stream'], status);
    assert.deepEqual(download.responses[status].content['application/octet-stream'].schema, binary);
    for (const header of ['ETag', 'Accept-Ranges', 'Content-Length'])
      assert.ok(download.responses[status].headers[header], `${header} of ${status}`);
  }
  assert.ok(download.responses['206'].headers['Content-Range']);
  assert.equal(download.responses['200'].headers['Content-Range'], undefined);
  // A HEAD answers the same headers, never a body.
  const head = doc.paths['/blob/v1/files/{fileId}'].head;
  assert.equal(head.operationId, 'headContent');
  assert.ok(head.responses['200'].headers.ETag);
  for (const response of Object.values(head.responses))
    assert.equal((response as { content?: unknown }).content, undefined);

  const chunk = doc.paths['/blob/v1/uploads/{uploadId}'].patch;
  assert.deepEqual(chunk.requestBody.content['application/offset+octet-stream'].schema, binary);
  for (const header of ['Upload-Offset', 'Upload-Expires', 'Tus-Resumable', 'ETag'])
    assert.ok(chunk.responses['204'].headers[header], header);
  const created = doc.paths['/api/v1/uploads'].post.responses['201'].headers;
  for (const header of ['Location', 'Coffer-File-Id', 'Upload-Offset', 'Upload-Expires', 'Tus-Resumable'])
    assert.ok(created[header], header);
});

it('describes every operation, beyond its summary: what it does and when to use it', async () => {
  const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  const undescribed = Object.entries(doc.paths as Record<string, Record<string, { description?: string }>>)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        at: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    )
    .filter(({ operation }) => !operation.description?.trim())
    .map(({ at }) => at);
  assert.deepEqual(undescribed, []);
});
