import fc from 'fast-check';
import type { FuzzFixture } from './fuzz-fixture.ts';

// Seeded byte-level cases for the raw-socket campaign: truncated and malformed multipart
// uploads, bad chunked encoding, oversized and malformed headers, bodies shorter and longer
// than declared, pipelining, garbage after a request and request-smuggling attempts.

export type RawCase = {
  family: string;
  name: string;
  chunks: Buffer[];
  /** Methods of the requests the bytes hold, in order (a HEAD's answer has no body). */
  methods: string[];
  /** Valid requests only: the client keeps the connection open until every one is answered. */
  allAnswered?: boolean;
};

const crlf = '\r\n';
const bytes = (text: string) => Buffer.from(text, 'latin1');
const head = (requestLine: string, headers: string[]) =>
  `${requestLine}${crlf}${headers.join(crlf)}${crlf}${crlf}`;

/** Everything a case needs to aim at real endpoints. */
export type RawTargets = FuzzFixture & { host: string };

function multipartCases(t: RawTargets): fc.Arbitrary<RawCase> {
  const link = fc.constantFrom(...t.uploadLinks);
  const content = fc.string({ maxLength: 300 });
  const form = (boundary: string, data: string) =>
    `--${boundary}${crlf}Content-Disposition: form-data; name="note"${crlf}${crlf}hi${crlf}` +
    `--${boundary}${crlf}Content-Disposition: form-data; name="data"; filename="a.txt"${crlf}Content-Type: text/plain${crlf}${crlf}` +
    `${data}${crlf}--${boundary}--${crlf}`;
  const put = (path: string, contentType: string, body: Buffer, declared = body.length) =>
    Buffer.concat([
      bytes(
        head(`PUT ${path} HTTP/1.1`, [
          `Host: ${t.host}`,
          `Content-Type: ${contentType}`,
          `Content-Length: ${declared}`,
        ]),
      ),
      body,
    ]);
  const boundary = fc.constantFrom(
    'B',
    'FuzzBoundary',
    '----WebKitFormBoundary7MA4YWxkTrZu0gW',
    'b'.repeat(70),
  );
  return fc.oneof(
    fc.tuple(link, boundary, content, fc.nat()).map(([path, b, data, at]) => {
      const body = bytes(form(b, data));
      const cut = body.subarray(0, at % body.length);
      return {
        family: 'multipart',
        name: 'form truncated, framed',
        chunks: [put(path, `multipart/form-data; boundary=${b}`, cut)],
        methods: ['PUT'],
      };
    }),
    fc.tuple(link, boundary, content, fc.nat()).map(([path, b, data, at]) => {
      const body = bytes(form(b, data));
      const message = put(path, `multipart/form-data; boundary=${b}`, body);
      const cut = message.subarray(0, message.length - 1 - (at % body.length));
      return {
        family: 'multipart',
        name: 'form shorter than its Content-Length',
        chunks: [cut],
        methods: ['PUT'],
      };
    }),
    fc
      .tuple(
        link,
        boundary,
        content,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      )
      .map(([path, b, data, flips]) => {
        const body = bytes(form(b, data));
        for (const [at, value] of flips) body[at % body.length] = value;
        return {
          family: 'multipart',
          name: 'form with flipped bytes',
          chunks: [put(path, `multipart/form-data; boundary=${b}`, body)],
          methods: ['PUT'],
        };
      }),
    fc
      .tuple(
        link,
        fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary="unterminated',
          `multipart/form-data; boundary=${'x'.repeat(300)}`,
          'multipart/form-data; boundary=B; boundary=C',
          'multipart/mixed; boundary=B',
          'multipart/form-data;;;boundary=B',
          'multipart/form-data; boundary=B; charset=utf-99',
        ),
        content,
      )
      .map(([path, contentType, data]) => ({
        family: 'multipart',
        name: `content type ${contentType.slice(0, 40)}`,
        chunks: [put(path, contentType, bytes(form('B', data)))],
        methods: ['PUT'],
      })),
    fc.tuple(link, fc.integer({ min: 100, max: 400 })).map(([path, parts]) => ({
      family: 'multipart',
      name: 'too many parts',
      chunks: [
        put(
          path,
          'multipart/form-data; boundary=B',
          bytes(
            `${Array.from({ length: parts }, (_, i) => `--B${crlf}Content-Disposition: form-data; name="f${i}"${crlf}${crlf}x${crlf}`).join('')}--B--${crlf}`,
          ),
        ),
      ],
      methods: ['PUT'],
    })),
    fc.tuple(link, fc.integer({ min: 1, max: 20_000 })).map(([path, size]) => ({
      family: 'multipart',
      name: 'part headers too large',
      chunks: [
        put(
          path,
          'multipart/form-data; boundary=B',
          bytes(
            `--B${crlf}Content-Disposition: form-data; name="data"; filename="${'a'.repeat(size)}"${crlf}${crlf}x${crlf}--B--${crlf}`,
          ),
        ),
      ],
      methods: ['PUT'],
    })),
    fc.tuple(link, content).map(([path, data]) => ({
      family: 'multipart',
      name: 'two data parts',
      chunks: [
        put(
          path,
          'multipart/form-data; boundary=B',
          bytes(form('B', data).replace('name="note"', 'name="data"; filename="b"')),
        ),
      ],
      methods: ['PUT'],
    })),
  );
}

function chunkedCases(t: RawTargets): fc.Arbitrary<RawCase> {
  const target = fc.constantFrom(
    { line: `PUT ${t.uploadLinks[0]} HTTP/1.1`, headers: ['Content-Type: text/plain'] },
    {
      line: 'POST /api/v1/file HTTP/1.1',
      headers: [
        'Content-Type: application/json',
        `sb-app-id: ${t.appId}`,
        `sb-app-secret: ${t.appSecret}`,
        `Authorization: Bearer ${t.token}`,
      ],
    },
  );
  const badBody = fc.oneof(
    fc.constantFrom(
      'zz\r\nhello\r\n0\r\n\r\n',
      '-1\r\nhello\r\n0\r\n\r\n',
      'ffffffffffffffffffff\r\nhello\r\n0\r\n\r\n',
      '5;ext=1\r\nhello\r\n0\r\n\r\n',
      ' 5\r\nhello\r\n0\r\n\r\n',
      '5\r\nhelloEXTRA\r\n0\r\n\r\n',
      '10\r\nhello\r\n0\r\n\r\n',
      '5\r\nhello0\r\n\r\n',
      '5\nhello\n0\n\n',
      '5\r\nhello\r\n',
      '5\r\nhello\r\n0\r\nTrailer: x\r\nBad trailer\r\n\r\n',
      '0x5\r\nhello\r\n0\r\n\r\n',
      '5\r\nhel',
      '\r\n\r\n',
      '5\r\nhello\r\n0\r\n\r\nGARBAGE',
    ),
    fc.string({ maxLength: 60 }),
  );
  return fc.tuple(target, badBody).map(([{ line, headers }, body]) => ({
    family: 'chunked',
    name: `chunked ${JSON.stringify(body.slice(0, 24))}`,
    chunks: [bytes(head(line, [`Host: ${t.host}`, ...headers, 'Transfer-Encoding: chunked']) + body)],
    methods: [line.split(' ')[0]!],
  }));
}

function headerCases(t: RawTargets): fc.Arbitrary<RawCase> {
  const line = fc.constantFrom(
    'GET /healthz HTTP/1.1',
    'GET /api/v1/user HTTP/1.1',
    `GET ${t.downloadLink ?? '/blob/v1/files/x'} HTTP/1.1`,
  );
  const bad = fc.oneof(
    fc
      .integer({ min: 17_000, max: 80_000 })
      .map((n) => ({ name: 'one huge header', lines: [`X-Big: ${'a'.repeat(n)}`] })),
    fc
      .integer({ min: 200, max: 3000 })
      .map((n) => ({ name: 'many headers', lines: Array.from({ length: n }, (_, i) => `X-H${i}: v`) })),
    fc.constantFrom(
      { name: 'space in name', lines: ['Bad Header: x'] },
      { name: 'space before colon', lines: ['Host : x'] },
      { name: 'no colon', lines: ['NoColonHere'] },
      { name: 'obs-fold', lines: ['X-A: one', ' continued'] },
      { name: 'NUL in value', lines: ['X-A: a\u0000b'] },
      { name: 'control in name', lines: ['X\u0001A: b'] },
      { name: 'empty name', lines: [': value'] },
      { name: 'two Hosts', lines: ['Host: a', 'Host: b'] },
      { name: 'two app ids', lines: [`sb-app-id: ${t.appId}`, 'sb-app-id: other'] },
      { name: 'high bytes', lines: ['X-A: \u00ff\u00fe\u0080'] },
      { name: 'CR alone', lines: ['X-A: a\rb'] },
    ),
  );
  return fc.tuple(line, bad, fc.boolean()).map(([requestLine, { name, lines }, lfOnly]) => {
    const text = head(requestLine, [`Host: ${t.host}`, ...lines]);
    return {
      family: 'headers',
      name: `${name}${lfOnly ? ' (LF line ends)' : ''}`,
      chunks: [bytes(lfOnly ? text.replaceAll(crlf, '\n') : text)],
      methods: ['GET'],
    };
  });
}

function framingCases(t: RawTargets): fc.Arbitrary<RawCase> {
  const auth = [`sb-app-id: ${t.appId}`, `sb-app-secret: ${t.appSecret}`, `Authorization: Bearer ${t.token}`];
  const json = '{"filePath":"raw/x.txt"}';
  const post = (extra: string[], body: string) =>
    head('POST /api/v1/file HTTP/1.1', [
      `Host: ${t.host}`,
      'Content-Type: application/json',
      ...auth,
      ...extra,
    ]) + body;
  const smuggled = `GET /api/v1/user HTTP/1.1${crlf}Host: ${t.host}${crlf}${crlf}`;
  const valid = fc.constantFrom(
    { method: 'GET', text: head('GET /healthz HTTP/1.1', [`Host: ${t.host}`]) },
    { method: 'HEAD', text: head('HEAD /healthz HTTP/1.1', [`Host: ${t.host}`]) },
    { method: 'GET', text: head('GET /api/v1/user HTTP/1.1', [`Host: ${t.host}`, ...auth]) },
    { method: 'POST', text: post([`Content-Length: ${json.length}`], json) },
    {
      method: 'PUT',
      text: `${head(`PUT ${t.uploadLinks[1]} HTTP/1.1`, [`Host: ${t.host}`, 'Content-Length: 5'])}hello`,
    },
  );
  return fc.oneof(
    fc.nat({ max: json.length - 1 }).map((short) => ({
      family: 'framing',
      name: 'body shorter than Content-Length',
      chunks: [bytes(post([`Content-Length: ${json.length}`], json.slice(0, short)))],
      methods: ['POST'],
    })),
    fc.string({ minLength: 1, maxLength: 80 }).map((extra) => ({
      family: 'framing',
      name: 'body longer than Content-Length',
      chunks: [Buffer.from(post([`Content-Length: ${json.length}`], json + extra), 'utf8')],
      methods: ['POST'],
    })),
    fc
      .constantFrom(
        ['CL and TE', [`Content-Length: 4`, 'Transfer-Encoding: chunked'], `0${crlf}${crlf}${smuggled}`],
        ['TE and CL', ['Transfer-Encoding: chunked', `Content-Length: 60`], `0${crlf}${crlf}${smuggled}`],
        ['two Content-Lengths', [`Content-Length: ${json.length}`, 'Content-Length: 0'], json],
        ['TE chunked, identity', ['Transfer-Encoding: chunked, identity'], `0${crlf}${crlf}`],
        ['TE xchunked', ['Transfer-Encoding: xchunked', `Content-Length: ${json.length}`], json],
        ['TE with a space', ['Transfer-Encoding : chunked'], `0${crlf}${crlf}`],
        ['TE identity', ['Transfer-Encoding: identity', `Content-Length: ${json.length}`], json],
        ['TE twice', ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], `0${crlf}${crlf}`],
        ['CL with a plus', ['Content-Length: +24'], json],
        ['CL list', [`Content-Length: ${json.length}, ${json.length}`], json],
      )
      .map(([name, extra, body]) => ({
        family: 'smuggling',
        name: name as string,
        chunks: [bytes(post([...extra], body))],
        methods: ['POST'],
      })),
    fc.array(valid, { minLength: 2, maxLength: 8 }).map((requests) => ({
      family: 'pipelining',
      name: `${requests.length} pipelined requests`,
      chunks: [bytes(requests.map((r) => r.text).join(''))],
      methods: requests.map((r) => r.method),
      allAnswered: true,
    })),
    fc
      .tuple(
        valid,
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 200 }),
          fc.constantFrom('\r\n\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n', '\u0000\u0000'),
        ),
      )
      .map(([request, garbage]) => ({
        family: 'framing',
        name: 'garbage after the request',
        chunks: [Buffer.concat([bytes(request.text), Buffer.from(garbage, 'utf8')])],
        methods: [request.method],
      })),
  );
}

function requestLineCases(t: RawTargets): fc.Arbitrary<RawCase> {
  const host = `Host: ${t.host}`;
  return fc
    .constantFrom(
      `GET /${crlf}${crlf}`,
      head('GET / HTTP/2.0', [host]),
      `PRI * HTTP/2.0${crlf}${crlf}SM${crlf}${crlf}`,
      head('get /healthz HTTP/1.1', [host]),
      head('GET http://evil.example/healthz HTTP/1.1', [host]),
      head('OPTIONS * HTTP/1.1', [host]),
      head(`CONNECT 127.0.0.1:${t.host.split(':')[1]} HTTP/1.1`, [host]),
      head('GET /healthz', [host]),
      head('GET  /healthz  HTTP/1.1', [host]),
      head('GET\t/healthz\tHTTP/1.1', [host]),
      head('GET /he\u0000lthz HTTP/1.1', [host]),
      head(`${'G'.repeat(5000)} / HTTP/1.1`, [host]),
      head(`GET /${'a'.repeat(100_000)} HTTP/1.1`, [host]),
      head('GET /healthz HTTP/1.1', []),
      head('GET /healthz HTTP/1.0', []),
      head('GET /healthz HTTP/9.9', [host]),
      head('GET /healthz HTTP/1.1', [host, 'Connection: Upgrade', 'Upgrade: websocket']),
      head('GET /healthz HTTP/1.1', [
        host,
        'Connection: Upgrade',
        'Upgrade: h2c',
        'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
      ]),
    )
    .map((text) => ({
      family: 'request line',
      name: JSON.stringify(text.slice(0, 40)),
      chunks: [bytes(text)],
      methods: [text.split(/[ \t]/)[0]!.toUpperCase()],
    }));
}

/** One raw case of any family. */
export function rawCase(targets: RawTargets): fc.Arbitrary<RawCase> {
  return fc.oneof(
    { weight: 4, arbitrary: multipartCases(targets) },
    { weight: 2, arbitrary: chunkedCases(targets) },
    { weight: 2, arbitrary: headerCases(targets) },
    { weight: 3, arbitrary: framingCases(targets) },
    { weight: 1, arbitrary: requestLineCases(targets) },
  );
}
