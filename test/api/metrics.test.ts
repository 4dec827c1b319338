import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** The value of one sample line (`name{labels} value`) of a Prometheus text, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function scrape(baseUrl: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /metrics (Prometheus text), loopback only by default', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('counts requests by route pattern and status, uploads, verifications, links and downloaded bytes', async () => {
    const before = await scrape(server.baseUrl);
    assert.equal(before.status, 200, before.text);
    assert.match(before.type ?? '', /^text\/plain; version=0\.0\.4/);
    const { token } = await server.client.signup();
    const content = Buffer.alloc(3000, 7);
    const file = await server.client.uploadFile(token, 'metrics/a.bin', content);
    const got = await server.client.call('GET', `/api/v1/file/${file._id}`, { token });
    assert.equal(got.status, 200, got.text);
    const viaGateway = got.body.url.startsWith(server.baseUrl);
    const download = await fetch(got.body.url);
    assert.equal((await download.arrayBuffer()).byteLength, content.length);
    assert.equal((await server.client.call('GET', '/api/v1/file/nope', { token })).status, 404);

    const after = (await scrape(server.baseUrl)).text;
    const grew = (series: string) => sample(after, series) - sample(before.text, series);
    assert.equal(grew('coffer_uploads_verified_total'), 1);
    assert.equal(grew('coffer_uploaded_bytes_total'), content.length);
    assert.equal(grew('coffer_links_issued_total{kind="upload"}'), 1);
    assert.equal(grew('coffer_links_issued_total{kind="download"}'), 1);
    assert.equal(grew('coffer_downloaded_bytes_total'), viaGateway ? content.length : 0);
    assert.equal(
      grew('coffer_http_requests_total{method="GET",route="/api/v1/file/:fileId",status="200"}'),
      1,
    );
    assert.equal(
      grew('coffer_http_requests_total{method="GET",route="/api/v1/file/:fileId",status="404"}'),
      1,
    );
    assert.equal(
      grew('coffer_http_request_duration_seconds_count{method="GET",route="/api/v1/file/:fileId"}'),
      2,
    );
    // No label holds a URL, an id or a token: routes are patterns.
    assert.doesNotMatch(after, new RegExp(file._id as string));
    assert.match(after, /^nodejs_eventloop_lag_p99_seconds /m);
    if (server.services.database.dialect === 'postgres')
      assert.match(after, /^coffer_database_pool_connections\{state="idle"\} \d+$/m);
  });

  it('refuses a request relayed by a proxy, whose client may be anywhere', async () => {
    const relays: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
    ];
    for (const header of relays) {
      const relayed = await fetch(`${server.baseUrl}/metrics`, { headers: header });
      assert.equal(relayed.status, 403);
      const body = await relayed.json();
      assert.deepEqual([body.statusCode, body.error, body.code], [403, 'Forbidden', 'ACCESS_DENIED']);
    }
  });
});

describe('GET /metrics with COFFER_METRICS_TOKEN', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_METRICS_TOKEN: 'scrape-secret-0123456789' });
  });
  after(() => server.stop());

  it('answers only the bearer of the token (from anywhere, proxies included)', async () => {
    assert.equal((await scrape(server.baseUrl)).status, 401);
    const missing = JSON.parse((await scrape(server.baseUrl)).text);
    assert.equal(missing.code, 'AUTH_REQUIRED');
    const wrong = await scrape(server.baseUrl, { authorization: 'Bearer scrape-secret-0123456788' });
    assert.equal(wrong.status, 401);
    assert.equal(JSON.parse(wrong.text).code, 'INVALID_TOKEN');
    const right = await scrape(server.baseUrl, {
      authorization: 'Bearer scrape-secret-0123456789',
      'x-forwarded-for': '203.0.113.9',
    });
    assert.equal(right.status, 200);
    assert.match(right.text, /^coffer_http_requests_total/m);
  });
});

describe('GET /metrics of `coffer serve --workers 2`', () => {
  it('counts every worker whichever one answers the scrape', async () => {
    const coffer = await startCofferProcess({ args: ['--workers', '2'] });
    try {
      const series = 'coffer_http_requests_total{method="GET",route="/healthz",status="200"}';
      const before = await scrape(coffer.baseUrl, { connection: 'close' });
      assert.equal(before.status, 200, before.text);
      // Fresh connections: the primary deals them out to both workers in turn, so one worker's
      // own count would grow by about half.
      const requests = 40;
      for (let index = 0; index < requests; index++) {
        const response = await fetch(`${coffer.baseUrl}/healthz`, { headers: { connection: 'close' } });
        assert.equal(response.status, 200);
      }
      for (let index = 0; index < 3; index++) {
        const after = await scrape(coffer.baseUrl, { connection: 'close' });
        assert.equal(after.status, 200, after.text);
        assert.equal(sample(after.text, series) - sample(before.text, series), requests);
      }
    } finally {
      await coffer.stop();
    }
  });
});
