import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { expectedEtag } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const MiB = 1024 * 1024;

/** A PUT whose body the test releases in two steps: the request is open between them. */
function heldPut(url: string, first: Buffer, rest: Buffer) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let sentFirst!: () => void;
  const firstSent = new Promise<void>((resolve) => (sentFirst = resolve));
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': first.length + rest.length },
    });
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(first, () => sentFirst());
    released.then(() => req.end(rest));
  });
  return { firstSent, release, answer };
}

describe('uploads racing verify: the record and its bytes never drift apart', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
  });
  after(() => server.stop());

  const requestUpload = async (filePath: string) => {
    const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
    assert.equal(requested.status, 200, requested.text);
    return requested.body as { fileId: string; putFileUrl: string };
  };
  const verify = (fileId: string, etag: string) =>
    server.client.call('POST', `/api/v1/file/${fileId}/verify`, { token, body: { etag } });

  it('a PUT that ends after verify is refused, and downloads keep serving the verified bytes', async () => {
    const { fileId, putFileUrl } = await requestUpload('race/late-put.txt');
    const original = Buffer.from('fourteen bytes');
    const put = await fetch(putFileUrl, { method: 'PUT', body: original });
    assert.equal(put.status, 200);

    const late = heldPut(putFileUrl, Buffer.alloc(MiB, 1), Buffer.alloc(2 * MiB, 2));
    await late.firstSent;
    const verified = await verify(fileId, put.headers.get('etag')!);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ContentLength, '14');
    late.release();
    const lateAnswer = await late.answer;
    assert.equal(lateAnswer.status, 409, lateAnswer.body);
    assert.equal(JSON.parse(lateAnswer.body).code, 'ALREADY_VERIFIED');

    const record = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    assert.equal(record.body.etag, expectedEtag(original));
    assert.equal(record.body.meta.ContentLength, '14');
    const download = await fetch(record.body.url);
    assert.equal(download.headers.get('content-length'), '14');
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.ok(bytes.equals(Buffer.from(original)), 'the verified bytes are served');
  });

  it('a download on a keep-alive connection is framed exactly: the next response follows it', async () => {
    const { fileId, putFileUrl } = await requestUpload('race/framing.txt');
    const put = await fetch(putFileUrl, { method: 'PUT', body: 'fourteen bytes' });
    const late = heldPut(putFileUrl, Buffer.alloc(MiB, 1), Buffer.alloc(2 * MiB, 2));
    await late.firstSent;
    assert.equal((await verify(fileId, put.headers.get('etag')!)).status, 200);
    late.release();
    await late.answer;
    const url = new URL((await server.client.call('GET', `/api/v1/file/${fileId}`, { token })).body.url);
    // Two requests pipelined on one socket: the second answer must start right after 14 bytes.
    const { connect } = await import('node:net');
    const socket = connect(Number(url.port), url.hostname);
    const path = `${url.pathname}${url.search}`;
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    let wire = '';
    socket.setEncoding('latin1');
    for await (const chunk of socket) wire += chunk;
    const [firstHead, afterFirstHead] = [
      wire.slice(0, wire.indexOf('\r\n\r\n')),
      wire.slice(wire.indexOf('\r\n\r\n') + 4),
    ];
    assert.match(firstHead, /content-length: 14/i);
    assert.equal(afterFirstHead.slice(0, 14), 'fourteen bytes');
    assert.match(afterFirstHead.slice(14), /^HTTP\/1\.1 200 OK\r\n/);
  });

  it('concurrent PUTs to one link then verify: exactly the verified bytes are served', async () => {
    const { fileId, putFileUrl } = await requestUpload('race/many-puts.txt');
    const bodies = Array.from({ length: 8 }, (_, index) => Buffer.alloc(1000 + index * 100_000, index + 1));
    const puts = await Promise.all(bodies.map((body) => fetch(putFileUrl, { method: 'PUT', body })));
    for (const put of puts) assert.equal(put.status, 200);
    const etags = puts.map((put) => put.headers.get('etag')!);
    // Only the last upload to commit can be verified; every other etag is a mismatch.
    const answers = await Promise.all(etags.map((etag) => verify(fileId, etag)));
    const winners = answers.filter((answer) => answer.status === 200);
    assert.equal(winners.length, 1, answers.map((answer) => answer.body.code ?? answer.status).join());
    for (const answer of answers) if (answer.status !== 200) assert.equal(answer.body.code, 'ETAG_MISMATCH');
    const record = await server.client.call('GET', `/api/v1/file/${fileId}`, { token });
    const winner = bodies[etags.indexOf(record.body.etag)]!;
    const download = Buffer.from(await (await fetch(record.body.url)).arrayBuffer());
    assert.equal(download.length, winner.length);
    assert.equal(expectedEtag(download), record.body.etag);
  });
});
