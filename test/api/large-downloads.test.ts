import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { countOpenFiles, waitFor } from '../support/resource-usage.ts';

// Large local downloads are written with buffers the server reuses once the socket has sent
// them (src/blob-stores/file-range-body.ts): a buffer handed back too early would show here
// as another download's bytes.

const MiB = 1024 * 1024;

describe('large downloads from the local disk', () => {
  let server: TestServer;
  let token: string;
  const files: { content: Buffer; url: string }[] = [];

  before(async () => {
    server = await startTestServer();
    token = (await server.client.signup()).token;
    for (const [index, size] of [3 * MiB + 5, 2.5 * MiB, MiB + 1].entries()) {
      const content = randomBytes(size);
      const record = await server.client.uploadFile(token, `large/${index}.bin`, content);
      const meta = await server.client.call('GET', `/api/v1/file/${record._id}`, { token });
      assert.equal(meta.status, 200, meta.text);
      files.push({ content, url: meta.body.url });
    }
  });
  after(() => server.stop());

  it('are byte-exact, whole and in ranges across the 1 MiB reads, with many at once', async () => {
    const cases = files.flatMap(({ content, url }) => [
      { url, content, range: undefined },
      { url, content, range: [MiB - 7, 2 * MiB + 3] as const },
      { url, content, range: [1, content.length - 1] as const },
      { url, content, range: [content.length - 10, content.length - 1] as const },
    ]);
    const downloads = [...cases, ...cases].map(async ({ url, content, range }) => {
      const response = await fetch(url, range && { headers: { range: `bytes=${range[0]}-${range[1]}` } });
      const body = Buffer.from(await response.arrayBuffer());
      const expected = range ? content.subarray(range[0], range[1] + 1) : content;
      assert.equal(response.status, range ? 206 : 200);
      assert.equal(response.headers.get('content-length'), String(expected.length));
      assert.ok(body.equals(expected), `${url.split('?')[0]} ${range ?? 'whole'}: other bytes`);
    });
    await Promise.all(downloads);
  });

  it('broken off by the client, close their files; the next ones are whole', async () => {
    // Larger than the loopback's socket buffers, so that the server is still sending.
    const content = randomBytes(16 * MiB);
    const record = await server.client.uploadFile(token, 'large/broken-off.bin', content);
    const { url } = (await server.client.call('GET', `/api/v1/file/${record._id}`, { token })).body;
    // A file handle left to the garbage collector is closed with this warning.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const openBefore = countOpenFiles();
      for (let round = 0; round < 10; round++) {
        const aborted = new AbortController();
        const response = await fetch(url, { signal: aborted.signal });
        const reader = response.body!.getReader();
        assert.equal((await reader.read()).done, false);
        aborted.abort();
        await reader.closed.catch(() => {});
      }
      if (openBefore !== undefined)
        await waitFor(() => countOpenFiles()! <= openBefore, 'the broken-off downloads to close their files');
      const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
      assert.ok(whole.equals(content));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(
      warnings.filter((message) => /garbage collection/.test(message)),
      [],
    );
  });

  it('count their bytes once complete, as the metrics did for streamed answers', async () => {
    const downloadedBytes = async () => {
      const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
      const line = text.split('\n').find((each) => each.startsWith('coffer_downloaded_bytes_total'));
      return Number(line?.split(' ').at(-1));
    };
    const before = await downloadedBytes();
    const response = await fetch(files[1]!.url);
    assert.equal((await response.arrayBuffer()).byteLength, files[1]!.content.length);
    // onResponse runs once the response has finished, which the client may see first.
    const deadline = Date.now() + 10_000;
    while ((await downloadedBytes()) === before && Date.now() < deadline) await setTimeout(20);
    assert.equal(await downloadedBytes(), before + files[1]!.content.length);
  });
});

describe('a large download whose client stops reading', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { COFFER_IDLE_TIMEOUT_SECONDS: '2' });
  });
  after(() => server.stop());

  it('is cut at the idle timeout, and its file is closed', async () => {
    const token = (await server.client.signup()).token;
    const record = await server.client.uploadFile(token, 'large/stalled.bin', randomBytes(16 * MiB));
    const url = new URL((await server.client.call('GET', `/api/v1/file/${record._id}`, { token })).body.url);
    const openBefore = countOpenFiles();
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => {}); // the server may reset it
    socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    // The first bytes, then no more reading: the server's writes stall once the buffers are full.
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    try {
      if (openBefore !== undefined)
        await waitFor(() => countOpenFiles()! <= openBefore, 'the stalled download to close its file');
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    } finally {
      socket.destroy();
    }
  });
});
