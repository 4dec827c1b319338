import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Focused regression tests for what the fuzzers found in the HTTP layer: each failed before
// its fix.

function send(baseUrl: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; contentType?: string; body: string }>((resolve, reject) => {
    const outgoing = request(`${baseUrl}${path}`, { headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('HTTP findings of the fuzzers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  // Found by the mutated-request campaign: Node answered an unknown `Expect` with an empty 417,
  // outside the error shape. RFC 9110 §10.1.1 lets a server ignore an expectation it does not
  // know; Coffer serves the request as if it had none.
  for (const expect of ['', 'nonsense', 'Bearer x', '200-ok']) {
    it(`an unknown expectation (${JSON.stringify(expect)}) is ignored: the request is served`, async () => {
      const probe = await send(server.baseUrl, '/healthz', { expect });
      assert.equal(probe.status, 200, probe.body);
      const refused = await send(server.baseUrl, '/api/v1/user', { expect });
      assert.equal(refused.status, 401, refused.body);
      assert.equal(JSON.parse(refused.body).code, 'APP_CREDENTIALS_REQUIRED');
    });
  }

  // Found by the mutated-request campaign on PostgreSQL, which cannot store U+0000 in text:
  // a NUL character in a listing filter, a login email or a signup field was a 500 INTERNAL.
  // Text with a NUL character is refused at the edge on every store.
  const withNul = [
    { name: 'listing filter', method: 'GET', path: '/api/v1/file?filePath=a%00b' },
    {
      name: 'login email',
      method: 'POST',
      path: '/api/v1/auth/login',
      body: { email: 'a\u0000@x.example', password: 'p' },
    },
    {
      name: 'signup email',
      method: 'POST',
      path: '/api/v1/auth/signup',
      body: { email: 'b\u0000@x.example', password: 'correct horse battery' },
    },
    {
      name: 'signup display name',
      method: 'POST',
      path: '/api/v1/auth/signup',
      body: { email: 'nul@x.example', password: 'correct horse battery', displayName: 'a\u0000b' },
    },
  ];
  for (const request of withNul) {
    it(`a NUL character in the ${request.name} is 400 VALIDATION_FAILED, never a 500`, async () => {
      const { token } = await server.client.signup();
      const response = await server.client.call(request.method, request.path, { token, body: request.body });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 'VALIDATION_FAILED');
    });
  }

  // Found by the mutated-request campaign on a busy machine: the 400 for a request Node could
  // not parse was lost whenever the client still sent bytes (here, the rest of its body) and
  // read the answer a moment later. The server closed at once; the client's TCP stack then got
  // a reset and dropped the unread answer. RFC 9112 §9.6: half-close, drain, then close.
  it('a client that is still sending and reads late still gets its 400', async () => {
    const { port } = new URL(server.baseUrl);
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.pause();
          setTimeout(() => socket.resume(), 100);
          socket.write('X /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
          setImmediate(() => socket.write(Buffer.alloc(256 * 1024, 'a')));
        });
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
      });
      assert.match(answer, /^HTTP\/1\.1 400 /, `attempt ${attempt}: ${JSON.stringify(answer)}`);
      assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'VALIDATION_FAILED');
    }
  });

  // Found by the mutated-request campaign: a HEAD that Node could not parse (a raw non-ASCII
  // byte in its path) was answered with a body, which HTTP forbids after a HEAD: the client
  // reads those bytes as the start of the next response.
  it('a HEAD that is not valid HTTP gets a 400 without a body', async () => {
    const { port } = new URL(server.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(Buffer.from('HEAD /\xee HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1')),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head ?? '', /^HTTP\/1\.1 400 /);
    assert.match(head ?? '', /content-type: application\/json/i);
    assert.equal(body, '');
  });
});

describe('HTTP findings of the hostile-client suite', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_REQUEST_TIMEOUT_SECONDS: '2',
        COFFER_HEADERS_TIMEOUT_SECONDS: '1',
        COFFER_MAX_FILE_SIZE_BYTES: '1024',
      },
    );
  });
  after(() => server.stop());

  // Found by the slow-body clients: an upload refused early (413) whose client kept trickling
  // bytes got a second, unasked-for answer on the same connection when the request timeout
  // struck (a raw 408 after the 413): a client or proxy reusing the connection would take it
  // for the answer to its next request.
  it('a request already answered gets no second answer when its slow body times out', async () => {
    const { token } = await server.client.signup();
    const requested = await server.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'big.bin' },
    });
    const link = new URL(requested.body.putFileUrl);
    const { port } = new URL(server.baseUrl);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', async () => {
        socket.write(
          `PUT ${link.pathname}${link.search} HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n`,
        );
        socket.write(Buffer.alloc(2048, 'a'));
        // Keep trickling, well past the request timeout, until the server hangs up.
        while (!socket.destroyed) {
          socket.write('a');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    assert.equal(answer.match(/HTTP\/1\.1 \d{3} /g)?.length, 1, answer);
    assert.match(answer, /^HTTP\/1\.1 413 /);
  });

  // Found by the mutated-request campaign on PostgreSQL + S3, after the fix above: a request
  // refused before its body arrived (401 at the barrier) marked its connection, and a later,
  // unparseable request on that same connection then got no answer at all.
  it('once an early-answered body has arrived, the next bad request on the connection gets its 400', async () => {
    const { port } = new URL(server.baseUrl);
    const body = JSON.stringify({ filePath: 'x'.repeat(20_000) });
    const answers = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/file HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        // The 401 came before the body: send the body, then a request that is not HTTP.
        if (text.includes('AUTH') || text.includes('APP_CREDENTIALS_REQUIRED')) {
          if (!socket.writableEnded) socket.end(`${body}X /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
        }
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    assert.deepEqual(answers.match(/HTTP\/1\.1 \d{3}/g), ['HTTP/1.1 401', 'HTTP/1.1 400'], answers);
  });
});
