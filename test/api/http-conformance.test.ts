import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/**
 * Issue 24, item 5: the HTTP details a client or a person meets first. (Conditional downloads
 * are in data-plane.test.ts, `coffer help <group>` in test/cli/help.test.ts.)
 */
describe('HTTP conformance', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { method, headers });

  it('a known URL asked with a method it does not take answers 405 with Allow, on both planes', async () => {
    const cases: Array<[method: string, path: string, allow: string]> = [
      ['PUT', '/api/v1/file', 'GET, HEAD, POST, OPTIONS'],
      ['PUT', '/api/v1/file/', 'GET, HEAD, POST, OPTIONS'],
      ['POST', '/api/v1/file/some-id', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
      ['GET', '/api/v1/file/some-id/verify', 'POST, OPTIONS'],
      ['GET', '/api/v1/auth/login', 'POST, OPTIONS'],
      ['DELETE', '/blob/v1/files/some-id', 'GET, HEAD, PUT, OPTIONS'],
      ['PUT', '/blob/v1/uploads/some-id', 'HEAD, POST, PATCH, DELETE, OPTIONS'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await send(method, path);
      const name = `${method} ${path}`;
      assert.equal(response.status, 405, name);
      assert.equal(response.headers.get('allow'), allow, name);
      assert.deepEqual(
        await response.json(),
        {
          statusCode: 405,
          error: 'Method Not Allowed',
          code: 'METHOD_NOT_ALLOWED',
          message: `This URL takes ${allow}`,
        },
        name,
      );
    }
  });

  it('an unknown URL stays 404, and so do wildcard folders and CORS preflights', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing'],
      ['PUT', '/api/v1/nothing/here'],
      ['GET', '/blob/v1/nothing'],
      // Served from folders by a wildcard GET: the URL names no known resource.
      ['POST', '/docs/no-such-asset.js'],
      ['POST', '/console/projects'],
      // An OPTIONS that no preflight route takes keeps its answer.
      ['OPTIONS', '/healthz'],
    ] as const) {
      const response = await send(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.headers.get('allow'), null, `${method} ${path}`);
      assert.equal((await response.json()).code, 'NOT_FOUND', `${method} ${path}`);
    }
    const controlPreflight = await send('OPTIONS', '/api/v1/file', {
      origin: 'https://nowhere.example',
      'access-control-request-method': 'PUT',
    });
    assert.equal(controlPreflight.status, 403, 'a preflight is answered by its own route, as before');
    assert.equal((await controlPreflight.json()).code, 'ORIGIN_NOT_ALLOWED');
    const dataPreflight = await send('OPTIONS', '/blob/v1/files/some-id', {
      origin: 'https://app.example.com',
      'access-control-request-method': 'DELETE',
    });
    assert.equal(dataPreflight.status, 204);
    assert.match(dataPreflight.headers.get('access-control-allow-methods') ?? '', /PUT/);
  });

  it('a listing filter under an unknown name is refused, naming the ones the API takes', async () => {
    const { token } = await server.client.signup();
    for (const path of ['in/a.txt', 'in/b.txt', 'out/c.txt'])
      await server.client.uploadFile(token, path, path);
    const refused = await server.client.call('GET', '/api/v1/file?prefix=in/', { token });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'VALIDATION_FAILED');
    assert.equal(
      refused.body.message,
      'Unknown query parameter "prefix": GET /api/v1/file takes pageSize, pageNumber, filePath, name, contentType, ' +
        'createdAfter, createdBefore, minSize, maxSize, sort, order, scope, cursor and customData.<key> ' +
        '(filePath is the prefix filter)',
    );
    const mixed = await server.client.call('GET', '/api/v1/file?filePath=in/&sortBy=name&limit=1', { token });
    assert.equal(mixed.status, 400);
    assert.match(mixed.body.message, /^Unknown query parameter "sortBy", "limit": /);
    // Barriers first: without a token the answer is 401, whatever the query (DESIGN §3).
    const anonymous = await server.client.call('GET', '/api/v1/file?prefix=in/');
    assert.equal(anonymous.body.code, 'AUTH_REQUIRED');

    // What the original SDKs send (a bare GET, their getAll) and the API's own names still work.
    const everything = await server.client.call('GET', '/api/v1/file', { token });
    assert.equal(everything.status, 200, everything.text);
    assert.equal(everything.body.total, 3);
    const filtered = await server.client.call('GET', '/api/v1/file?filePath=in/&pageSize=1&pageNumber=2', {
      token,
    });
    assert.equal(filtered.status, 200, filtered.text);
    assert.deepEqual(
      {
        total: filtered.body.total,
        page: filtered.body.page,
        paths: filtered.body.docs.map((d: { filePath: string }) => d.filePath),
      },
      { total: 2, page: 2, paths: ['in/a.txt'] },
    );
  });

  it('GET / is a small page pointing to /console and /docs', async () => {
    const response = await send('GET', '/');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await response.text();
    assert.match(html, /<title>Coffer<\/title>/);
    assert.match(html, /href="\.\/console"/);
    assert.match(html, /href="\.\/docs"/);
    for (const link of ['/console', '/docs']) {
      const target = await send('GET', new URL(link, `${server.baseUrl}/`).pathname);
      // The console answers 503 in a checkout where it was not built; it is there either way.
      assert.ok([200, 503].includes(target.status), `${link}: ${target.status}`);
      await target.arrayBuffer();
    }
    const head = await send('HEAD', '/');
    assert.equal(head.status, 200);
  });
});

describe('/metrics: stored bytes and files per project', () => {
  let server: TestServer;
  // The gauges reuse a reading for a while (bounded work per scrape): the test moves the time.
  const clock = new ManualClock();
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server.stop());

  const send = (method: string, path: string) => fetch(`${server.baseUrl}${path}`, { method });

  it('/metrics has gauges of stored bytes and files per project, and their totals', async () => {
    const other = await server.createProject('metrics-other');
    const mine = await server.client.signup();
    const theirs = await other.signup();
    await server.client.uploadFile(mine.token, 'gauge/a.bin', Buffer.alloc(1000, 1));
    await server.client.uploadFile(mine.token, 'gauge/b.bin', Buffer.alloc(234, 2));
    await other.uploadFile(theirs.token, 'gauge/c.bin', Buffer.alloc(5000, 3));
    clock.advance(60);

    const text = await (await send('GET', '/metrics')).text();
    const series = (name: string, projectId: string) =>
      samples(text, name).find(({ labels }) => labels.includes(`project="${projectId}"`))?.value;
    const defaultId = server.credentials.projectId;
    const otherId = other.credentials.projectId;
    assert.ok(defaultId && otherId);
    assert.equal(series('coffer_project_stored_files', defaultId), 2);
    assert.equal(series('coffer_project_stored_bytes', defaultId), 1234);
    assert.equal(series('coffer_project_stored_files', otherId), 1);
    assert.equal(series('coffer_project_stored_bytes', otherId), 5000);
    assert.match(
      text,
      new RegExp(`coffer_project_stored_bytes\\{project="${otherId}",name="metrics-other"\\} 5000`),
    );
    assert.equal(samples(text, 'coffer_stored_bytes')[0]?.value, 1234 + 5000);
    assert.equal(samples(text, 'coffer_stored_files')[0]?.value, 2 + 1);
  });
});

/** The samples of one metric in a Prometheus text: each with its label text and value. */
function samples(text: string, name: string): Array<{ labels: string; value: number }> {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .map((line) => {
      const space = line.lastIndexOf(' ');
      return { labels: line.slice(name.length, space), value: Number(line.slice(space + 1)) };
    });
}
