import fc from 'fast-check';
import { mutateBody } from './fuzz-body-mutation.ts';
import type { FuzzFixture } from './fuzz-fixture.ts';
import { mutation } from './fuzz-mutation.ts';
import { nastyString, toHeaderValue, toUrlText } from './fuzz-values.ts';

// The ways a valid request is changed: its method, path, query, headers, framing or body.

const splitPath = (path: string) => {
  const at = path.indexOf('?');
  return at === -1
    ? { pathname: path, query: '' }
    : { pathname: path.slice(0, at), query: path.slice(at + 1) };
};
const joinPath = (pathname: string, query: string) => (query ? `${pathname}?${query}` : pathname);

const methods = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'SEARCH',
  'X',
];
const mutateMethod = fc
  .constantFrom(...methods)
  .map((method) => mutation(`method ${method}`, (r) => ({ ...r, method })));

const mutatePath = fc
  .tuple(
    fc.nat(),
    nastyString,
    fc.boolean(),
    fc.constantFrom('replace', 'insert', 'drop', 'double-slash', 'trailing'),
  )
  .map(([at, text, raw, how]) =>
    mutation(`path ${how}`, (r) => {
      const { pathname, query } = splitPath(r.path);
      const segments = pathname.split('/');
      const index = 1 + (at % Math.max(1, segments.length - 1));
      const segment = toUrlText(text, raw);
      if (how === 'replace') segments[index] = segment;
      if (how === 'insert') segments.splice(index, 0, segment);
      if (how === 'drop') segments.splice(index, 1);
      if (how === 'double-slash') segments.splice(index, 0, '');
      if (how === 'trailing') segments.push('');
      return { ...r, path: joinPath(segments.join('/') || '/', query) };
    }),
  );

const queryKeys = [
  'expiresInSeconds',
  'pageSize',
  'pageNumber',
  'filePath',
  'exp',
  'kid',
  'sig',
  '__proto__',
  'a[b]',
  '',
];
const mutateQuery = fc
  .tuple(
    fc.nat(),
    fc.constantFrom(...queryKeys),
    nastyString,
    fc.boolean(),
    fc.constantFrom('drop', 'duplicate', 'value', 'add', 'one-character', 'replace-all', 'strip'),
  )
  .map(([at, key, text, raw, how]) =>
    mutation(`query ${how}`, (r) => {
      const { pathname, query } = splitPath(r.path);
      const pairs = query ? query.split('&') : [];
      const index = at % Math.max(1, pairs.length);
      const value = toUrlText(text, raw);
      if (how === 'drop') pairs.splice(index, 1);
      if (how === 'duplicate' && pairs[index]) pairs.push(pairs[index]!);
      if (how === 'value' && pairs[index]) pairs[index] = `${pairs[index]!.split('=')[0]}=${value}`;
      if (how === 'add') pairs.push(`${key}=${value}`);
      if (how === 'one-character' && pairs[index]) {
        const pair = pairs[index]!;
        const position = (at >> 4) % pair.length;
        const replacement = pair[position] === 'A' ? 'B' : 'A';
        pairs[index] = pair.slice(0, position) + replacement + pair.slice(position + 1);
      }
      if (how === 'replace-all') return { ...r, path: joinPath(pathname, value) };
      if (how === 'strip') return { ...r, path: pathname };
      return { ...r, path: joinPath(pathname, pairs.join('&')) };
    }),
  );

const headerNames = [
  'sb-app-id',
  'sb-app-secret',
  'origin',
  'authorization',
  'content-type',
  'range',
  'if-none-match',
  'host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'accept',
  'accept-encoding',
  'cookie',
  'access-control-request-headers',
  'expect',
];
const headerValues = (fixture: FuzzFixture) =>
  fc.oneof(
    nastyString.map(toHeaderValue),
    fc.constantFrom(
      fixture.appId,
      fixture.otherAppId,
      fixture.appSecret,
      fixture.otherAppSecret,
      fixture.allowedOrigin,
      'https://evil.example',
      'null',
      `Bearer ${fixture.token}`,
      `Bearer ${fixture.strangerToken}`,
      `Bearer ${fixture.otherToken}`,
      `Bearer ${fixture.token.slice(0, -2)}xx`,
      `Bearer ${fixture.token.split('.').slice(0, 2).join('.')}.`,
      // An alg:none token for the owner.
      `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${fixture.token.split('.')[1]}.`,
      'Bearer',
      'Bearer  a b',
      'Basic dXNlcjpwYXNz',
      'application/json',
      'application/json; charset=utf-16',
      'application/json;charset=UTF-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${'b'.repeat(200)}`,
      ';;;',
      'bytes=0-0',
      'bytes=-1',
      'bytes=5-',
      'bytes=99999999-',
      'bytes=0-1,2-3',
      'bytes=1-0',
      'bytes=--1',
      `bytes=0-${'9'.repeat(30)}`,
      fixture.etag,
      '*',
      `W/${fixture.etag}`,
      '100-continue',
      'gzip, deflate, br',
    ),
  );
const mutateHeader = (fixture: FuzzFixture) =>
  fc
    .tuple(fc.constantFrom(...headerNames), headerValues(fixture), fc.constantFrom('set', 'drop', 'twice'))
    .map(([name, value, how]) =>
      mutation(`header ${how} ${name}`, (r) => {
        const headers = { ...r.headers };
        if (how === 'drop') delete headers[name];
        // Node's client sends one Host at most (raw-socket cases send two).
        else if (how === 'twice' && name !== 'host') headers[name] = [String(headers[name] ?? value), value];
        else headers[name] = value;
        return { ...r, headers };
      }),
    );

/** Content-Length that is not a number: Node refuses the request and closes. */
const mutateContentLength = fc.constantFrom('abc', '-1', '1, 2', '0x10', ' ', '+5', '1e3').map((value) =>
  mutation('content-length malformed', (r) => ({
    ...r,
    headers: { ...r.headers, 'content-length': value, connection: 'close' },
  })),
);
const dropHost = fc.constant(mutation('no Host header', (r) => ({ ...r, omitHost: true })));
const chunked = fc.constant(mutation('chunked body', (r) => ({ ...r, chunked: true })));

export const requestMutation = (fixture: FuzzFixture) =>
  fc.oneof(
    { weight: 3, arbitrary: mutateMethod },
    { weight: 4, arbitrary: mutatePath },
    { weight: 4, arbitrary: mutateQuery },
    { weight: 8, arbitrary: mutateHeader(fixture) },
    { weight: 6, arbitrary: mutateBody },
    { weight: 1, arbitrary: mutateContentLength },
    { weight: 1, arbitrary: dropHost },
    { weight: 1, arbitrary: chunked },
  );
