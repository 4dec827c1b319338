import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { pngImage } from '../support/test-images.ts';

// Issue 43 item 4: the document says what each operation really accepts. The security it states
// is checked against the running routes (a call with each kind of credential, or none, meets the
// barrier the document promises), and the query it declares for each signed-link route is
// checked against the links Coffer actually hands out (the same fields, all required, in order).

type Parameter = { name: string; in: string; required?: boolean };
type Documented = { security?: Record<string, string[]>[]; parameters?: Parameter[] };
type Doc = { paths: Record<string, Record<string, Documented>> };

let server: TestServer;
let doc: Doc;
before(async () => {
  server = await startTestServer();
  doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
});
after(() => server.stop());

/** The query fields the document declares for an operation, in its order, with their requiredness. */
function declaredQuery(method: string, path: string): string[] {
  const operation = doc.paths[path]?.[method];
  assert.ok(operation, `${method} ${path} is in the document`);
  return (operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => `${parameter.name}${parameter.required ? '' : '?'}`);
}

/** Which documented path a link's URL is of (its `{param}` segments match any one segment). */
function documentedPathOf(link: string): string {
  const { pathname } = new URL(link);
  const path = Object.keys(doc.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
  assert.ok(path, `${pathname} is a documented path`);
  return path;
}

it('every kind of link Coffer hands out carries exactly the query the document declares for its route, in order', async () => {
  const { client } = server;
  const user = await client.signup();
  const token = user.token;
  const text = await client.uploadFile(token, 'links/a.txt', 'some text');
  const image = await client.uploadFile(token, 'links/a.png', await pngImage({ width: 64, height: 64 }), {
    contentType: 'image/png',
  });
  const upload = await client.call('POST', '/api/v1/file', { token, body: { filePath: 'links/b.txt' } });
  const download = await client.call('GET', `/api/v1/file/${text._id}`, { token });
  const rendition = await client.call('GET', `/api/v1/file/${image._id}?width=32`, { token });
  const version = await client.call('POST', `/api/v1/file/${text._id}/versions`, {
    token,
    body: { contentLength: 3 },
  });
  const archive = await client.call('POST', '/api/v1/archives', { token, body: { fileIds: [text._id] } });
  const resumable = await client.call('POST', '/api/v1/uploads', {
    token,
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': '3',
      'upload-metadata': `filePath ${Buffer.from('links/c.txt').toString('base64')}`,
    },
  });
  const links: [string, string, string | null][] = [
    ['upload', 'put', upload.body.putFileUrl],
    ['download', 'get', download.body.url],
    ['download', 'head', download.body.url],
    ['rendition', 'get', rendition.body.url],
    ['version upload', 'put', version.body.putFileUrl],
    ['archive', 'get', archive.body.url],
    ['resumable upload', 'patch', resumable.headers.get('location')],
    ['resumable upload', 'head', resumable.headers.get('location')],
    ['resumable upload', 'delete', resumable.headers.get('location')],
  ];
  for (const [kind, method, link] of links) {
    assert.ok(link, `a ${kind} link was handed out`);
    const handed = [...new URL(link, server.baseUrl).searchParams.keys()];
    const path = documentedPathOf(new URL(link, server.baseUrl).href);
    assert.deepEqual(declaredQuery(method, path), handed, `${kind} link: ${method.toUpperCase()} ${path}`);
  }
});

/** What a call meets at the barriers: the error code, or the status where the answer has no body. */
async function barrierAnswer(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Record<string, string>,
) {
  const url = `${server.baseUrl}${path.replace(/\{[^}]+\}/g, 'x')}`;
  // tus routes check the protocol version (and a POST its override) before the link: every
  // probe names them, and no other route reads them.
  const tus = { ...headers, 'tus-resumable': '1.0.0', 'x-http-method-override': 'HEAD' };
  const init = body
    ? { body: JSON.stringify(body), headers: { ...tus, 'content-type': 'application/json' } }
    : { headers: tus };
  const response = await fetch(url, { method: method.toUpperCase(), ...init });
  const json = /json/.test(response.headers.get('content-type') ?? '') && method !== 'head';
  if (!json) {
    await response.body?.cancel();
    return { status: response.status, code: undefined };
  }
  const answer = (await response.json()) as { code?: string };
  return { status: response.status, code: answer.code };
}

/**
 * Tokenless operations that take a bearer token or, without one, what their body names (the
 * session's refresh token, the address to verify): without either they answer AUTH_REQUIRED,
 * so the probe sends the body.
 */
const bodyCredentials: Record<string, Record<string, string>> = {
  'POST /api/v1/auth/logout': { refreshToken: 'not-a-known-refresh-token' },
  'POST /api/v1/auth/verify-email': { email: 'nobody@example.com' },
};

it("each operation's security is what its route really accepts: none, app credentials, a token, a service key, a signed link", async () => {
  const serviceKey = await server.createServiceKey();
  const mismatches: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const at = `${method.toUpperCase()} ${path}`;
      // Every operation is probed, and every mismatch reported at once.
      try {
        await probeBarriers(at, method, path, operation, serviceKey);
      } catch (error) {
        mismatches.push(String((error as Error).message));
      }
    }
  assert.deepEqual(mismatches, []);
});

/** Calls one operation with no credential, app credentials, a service key: each meets the barrier the document states. */
async function probeBarriers(
  at: string,
  method: string,
  path: string,
  operation: Documented,
  serviceKey: string,
) {
  const { appId, appSecret } = server.credentials;
  const unauthenticated = new Set(['APP_CREDENTIALS_REQUIRED', 'AUTH_REQUIRED', 'INVALID_TOKEN']);
  const alternatives = operation.security ?? [];
  const signed = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'sig' && p.required);
  const bare = await barrierAnswer(method, path, {});
  if (signed) {
    // A tus URL that is no upload's is UPLOAD_NOT_FOUND, whatever is wrong with it (no oracle).
    const refusal = path.startsWith('/blob/v1/uploads/')
      ? { status: 404, code: 'UPLOAD_NOT_FOUND' }
      : { status: 403, code: 'INVALID_SIGNATURE' };
    assert.equal(bare.status, refusal.status, `${at}: a link route without its signed query`);
    if (bare.code) assert.equal(bare.code, refusal.code, at);
    assert.deepEqual(alternatives, [], `${at}: the link is its credential`);
    return;
  }
  const open = alternatives.length === 0 || alternatives.some((entry) => Object.keys(entry).length === 0);
  if (open) {
    assert.ok(!unauthenticated.has(bare.code ?? ''), `${at} takes no credential, answered ${bare.code}`);
    return;
  }
  assert.ok(
    alternatives.every((entry) => 'appId' in entry),
    `${at}: every alternative names the app`,
  );
  assert.equal(bare.code, 'APP_CREDENTIALS_REQUIRED', `${at} without credentials`);
  const tokenless = alternatives.some((entry) => 'appSecret' in entry && !('bearer' in entry));
  const appHeaders = { 'sb-app-id': appId, 'sb-app-secret': appSecret };
  const app = await barrierAnswer(method, path, appHeaders, bodyCredentials[at]);
  if (tokenless) assert.ok(!unauthenticated.has(app.code ?? ''), `${at} with app credentials: ${app.code}`);
  else assert.equal(app.code, 'AUTH_REQUIRED', `${at} with app credentials and no token`);
  // Both ways: a service key passes exactly where the document lists it.
  const keyHeaders = { 'sb-app-id': appId, authorization: `Bearer ${serviceKey}` };
  const keyed = await barrierAnswer(method, path, keyHeaders, bodyCredentials[at]);
  assert.equal(
    alternatives.some((entry) => 'serviceKey' in entry),
    !unauthenticated.has(keyed.code ?? ''),
    `${at} with a service key answered ${keyed.code}`,
  );
}
