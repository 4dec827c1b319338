import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findErrorShapeProblem } from '../support/error-shape.ts';
import {
  type Address,
  dribble,
  flood,
  median,
  openIdleConnections,
  timeCalls,
  waitUntilClosedByServer,
} from '../support/hostile-clients.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { parseResponses, type RawExchange } from '../support/raw-http.ts';
import { countOpenFiles, waitForConnections, waitForEmptyDirectory } from '../support/resource-usage.ts';
import { currentStackName } from '../support/test-stack.ts';

// Slow and hostile clients: byte-by-byte headers and bodies, hundreds of idle connections,
// bodies longer than declared. Others keep normal service (every call made while the attack
// runs answers, with the right bytes), and every socket, file handle and temp file is released
// after. Short server timeouts come from settings.
// How fast those calls are is not asserted: on a loaded machine a ratio to a baseline measured
// moments before follows the load, not Coffer. A latency figure under attack belongs in
// `npm run bench`; the medians are printed here for information only.

/** Normal calls made while an attack runs; they run back to back, as one patient client. */
const normalCalls = 30;
/**
 * A hang guard, not a speed check: a normal call (two requests) stuck behind the attackers
 * until the end of the attack is still far below it, even on a loaded machine.
 */
const normalCallHangGuardMs = 30_000;
const mebibyte = 1024 * 1024;

describe('slow and hostile clients', { timeout: 900_000 }, () => {
  let server: TestServer;
  let address: Address;
  let token: string;
  let fileId: string;
  let uploadLinks: string[];
  let baselineMedianMs: number;
  let baselineOpenFiles: number | undefined;

  /** A normal client's call: read a file record (a database read) and download its bytes. */
  const normalCall = async () => {
    const read = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(read.status, 200, read.text);
    const download = await fetch(read.body.url);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'normal service');
  };

  /** Calls made while the attack runs: every one answers 200 with the file's bytes, none hangs. */
  const assertNormalService = async () => {
    const times = await timeCalls(normalCalls, normalCall, normalCallHangGuardMs);
    console.log(
      `# median latency ${median(times).toFixed(1)} ms under attack, ` +
        `${baselineMedianMs.toFixed(1)} ms before it (information, not asserted)`,
    );
  };

  /** Everything the attackers held is released: sockets, file handles, temp files. */
  const assertReleased = async () => {
    await waitForConnections(server);
    if (currentStackName() === 'embedded')
      await waitForEmptyDirectory(path.join(server.dataDir, 'blobs', '.tmp'));
    const openFiles = countOpenFiles();
    if (openFiles !== undefined && baselineOpenFiles !== undefined)
      assert.ok(openFiles <= baselineOpenFiles + 4, `open files: ${baselineOpenFiles} → ${openFiles}`);
  };

  const requestUpload = async (name: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: `hostile/${name}` },
    });
    assert.equal(requested.status, 200, requested.text);
    const url = new URL(requested.body.putFileUrl);
    return `${url.pathname}${url.search}`;
  };

  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_HEADERS_TIMEOUT_SECONDS: '1',
        COFFER_REQUEST_TIMEOUT_SECONDS: '3',
        COFFER_IDLE_TIMEOUT_SECONDS: '2',
        COFFER_MAX_FILE_SIZE_BYTES: String(mebibyte),
      },
    );
    const { hostname, port } = new URL(server.baseUrl);
    address = { host: hostname, port: Number(port) };
    token = (await server.client.signup()).token;
    fileId = (await server.client.uploadFile(token, 'hostile/normal.txt', 'normal service'))._id;
    uploadLinks = await Promise.all(Array.from({ length: 30 }, (_, i) => requestUpload(`slow-${i}.bin`)));
    await normalCall(); // warm up
    baselineMedianMs = median(await timeCalls(normalCalls, normalCall, normalCallHangGuardMs));
    await waitForConnections(server);
    baselineOpenFiles = countOpenFiles();
  });
  after(() => server.stop());

  /** What a dribbling client got: nothing, or a 408 in the error shape, and the server hung up. */
  const assertTimedOut = (exchange: RawExchange) => {
    assert.equal(exchange.ending, 'closed by the server');
    if (exchange.received.length === 0) return;
    const [answer] = parseResponses(exchange.received, ['GET']);
    assert.equal(answer?.status, 408, exchange.received.toString('latin1'));
    assert.equal(
      findErrorShapeProblem({
        status: 408,
        contentType: answer.headers['content-type'],
        body: answer.body,
        method: 'GET',
      }),
      undefined,
    );
    assert.equal(JSON.parse(answer.body).code, 'REQUEST_TIMEOUT');
  };

  it('headers sent byte by byte: each slow client is cut off at the headers timeout, others are served', async () => {
    const headers =
      `GET /api/v1/user HTTP/1.1\r\nHost: ${address.host}\r\nsb-app-id: ${server.credentials.appId}\r\n` +
      `sb-app-secret: ${server.credentials.appSecret}\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    const attackers = Array.from({ length: 60 }, () => dribble(address, headers, 25));
    await assertNormalService();
    for (const exchange of await Promise.all(attackers)) assertTimedOut(exchange);
    await assertReleased();
  });

  it('bodies sent byte by byte on both planes: cut off at the request timeout, nothing kept', async () => {
    const slowUploads = uploadLinks.map((link) =>
      dribble(
        address,
        `PUT ${link} HTTP/1.1\r\nHost: x\r\nContent-Length: 4000\r\n\r\n${'b'.repeat(4000)}`,
        20,
      ),
    );
    const json = JSON.stringify({ filePath: `hostile/${'j'.repeat(400)}` });
    const slowJson = Array.from({ length: 20 }, () =>
      dribble(
        address,
        `POST /api/v1/file HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nsb-app-id: ${server.credentials.appId}\r\n` +
          `sb-app-secret: ${server.credentials.appSecret}\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
        20,
      ),
    );
    await assertNormalService();
    for (const exchange of await Promise.all([...slowUploads, ...slowJson])) assertTimedOut(exchange);
    await assertReleased();
    // The partial uploads left nothing to verify.
    const verify = await server.client.call(
      'POST',
      `/api/v1/file/${uploadLinks[0]!.split('/')[4]!.split('?')[0]}/verify`,
      {
        token,
        body: { etag: '"x"' },
      },
    );
    assert.equal(verify.body.code, 'UPLOAD_MISSING', verify.text);
  });

  it('hundreds of idle connections: others are served, the server closes them at the idle timeout', async () => {
    const silent = await openIdleConnections(address, 300);
    // Connections that sent one request and then just sit there, never reading the answer.
    const lingering = await openIdleConnections(address, 100);
    for (const socket of lingering) socket.write(`GET /healthz HTTP/1.1\r\nHost: ${address.host}\r\n\r\n`);
    await assertNormalService();
    await waitUntilClosedByServer([...silent, ...lingering]);
    await assertReleased();
  });

  it('bodies longer than declared: the server stops reading, never answers 5xx, others are served', async () => {
    const json = '{"filePath":"hostile/long.txt"}';
    const control =
      `POST /api/v1/file HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nsb-app-id: ${server.credentials.appId}\r\n` +
      `sb-app-secret: ${server.credentials.appSecret}\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${json.length}\r\n\r\n${json}`;
    const upload = await requestUpload('long.bin');
    const data = `PUT ${upload} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello`;
    const tooLarge = `PUT ${await requestUpload('large.bin')} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const floods = [
      flood(address, control),
      flood(address, data),
      // A body past the largest allowed file, as chunks that never end (the filler is no valid
      // chunk framing either: the server must stop at whichever it meets first).
      flood(address, `${tooLarge}${(2 * mebibyte).toString(16)}\r\n`),
    ];
    await assertNormalService();
    for (const [index, result] of (await Promise.all(floods)).entries()) {
      // The server hangs up on the filler (after a short drain that lets its answer reach the
      // client). What it answered is HTTP, in the error shape, never a 5xx.
      assert.ok(result.closedByServer, `flood ${index}: the server kept reading (${result.written} bytes)`);
      const answers = parseResponses(Buffer.from(result.received, 'latin1'), ['POST', 'PUT']);
      for (const answer of answers) {
        const problem = findErrorShapeProblem({
          status: answer.status,
          contentType: answer.headers['content-type'],
          body: answer.body,
          method: 'POST',
        });
        assert.equal(problem, undefined, `flood ${index}: ${result.received.slice(0, 300)}`);
      }
    }
    await assertReleased();
  });
});
