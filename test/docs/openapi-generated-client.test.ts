import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { binaryAsBytes } from '../../scripts/binary-types.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Issue 24: a client generated from the live document by well-kept generators (openapi-typescript
// for the types, openapi-fetch for the calls) runs the whole flow, upload and download included.
// The types exist only once the server answers, so the flow that uses them is written beside
// them: tsc checks it against them, then this test runs it.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/.bin/tsc');

/**
 * The flow, typed by the generated `paths`: each call's path, parameters, body and answer are
 * checked, and none is cast (the test refuses the flow if one is: see castFree).
 */
const flowSource = `import type createClient from 'openapi-fetch';
import type { paths } from './coffer-api.ts';

export type App = { appId: string; appSecret: string };

export async function runFlow(create: typeof createClient, baseUrl: string, app: App, content: Uint8Array) {
  const coffer = create<paths>({ baseUrl, headers: { 'sb-app-id': app.appId, 'sb-app-secret': app.appSecret } });
  const account = { email: 'generated@example.com', password: 'correct horse battery' };
  const signup = await coffer.POST('/api/v1/auth/signup', { body: account });
  if (!signup.data) throw new Error('signup: ' + JSON.stringify(signup.error));
  const signin = await coffer.POST('/api/v1/auth/login', { body: account });
  if (!signin.data) throw new Error('login: ' + JSON.stringify(signin.error));
  const authorization = 'Bearer ' + signin.data.token;
  const ticket = await coffer.POST('/api/v1/file', {
    headers: { authorization },
    body: { filePath: 'generated/hello.txt', contentType: 'text/plain', contentLength: content.byteLength },
  });
  if (!ticket.data) throw new Error('upload request: ' + JSON.stringify(ticket.error));
  const fileId = ticket.data.fileId;
  // The link's own query, field by field in the order the document lists them (the signed one).
  const uploadLink = new URL(ticket.data.putFileUrl).searchParams;
  const stored = await coffer.PUT('/blob/v1/files/{fileId}', {
    params: {
      path: { fileId },
      query: { exp: Number(uploadLink.get('exp')), kid: uploadLink.get('kid') ?? '', sig: uploadLink.get('sig') ?? '' },
    },
    headers: { 'content-type': 'text/plain' },
    body: content,
    bodySerializer: (bytes) => bytes,
  });
  if (!stored.data) throw new Error('upload: ' + JSON.stringify(stored.error));
  const etag = stored.response.headers.get('etag') ?? '';
  const verified = await coffer.POST('/api/v1/file/{fileId}/verify', {
    headers: { authorization },
    params: { path: { fileId } },
    body: { etag },
  });
  if (!verified.data) throw new Error('verify: ' + JSON.stringify(verified.error));
  const record = await coffer.GET('/api/v1/file/{fileId}', {
    headers: { authorization },
    params: { path: { fileId } },
  });
  if (!record.data) throw new Error('get: ' + JSON.stringify(record.error));
  const downloadLink = new URL(record.data.url).searchParams;
  const downloaded = await coffer.GET('/blob/v1/files/{fileId}', {
    params: {
      path: { fileId },
      query: {
        exp: Number(downloadLink.get('exp')),
        gen: Number(downloadLink.get('gen')),
        ver: downloadLink.get('ver') ?? '',
        kid: downloadLink.get('kid') ?? '',
        sig: downloadLink.get('sig') ?? '',
      },
    },
    parseAs: 'arrayBuffer',
  });
  if (!downloaded.data) throw new Error('download: ' + JSON.stringify(downloaded.error));
  const listing = await coffer.GET('/api/v1/file', {
    headers: { authorization },
    params: { query: { filePath: 'generated/', pageSize: 10 } },
  });
  if (!listing.data) throw new Error('listing: ' + JSON.stringify(listing.error));
  return {
    signedIn: signin.data.userId === signup.data.userId,
    storedBody: stored.data,
    etag,
    verified: verified.data.verified,
    recordEtag: record.data.etag,
    contentType: downloaded.response.headers.get('content-type'),
    downloaded: new Uint8Array(downloaded.data),
    listed: listing.data.docs.map((file) => file.filePath),
  };
}
`;

/** What the brief forbids in the flow's calls: a cast, an any, a silenced error. */
const casts = /\bas\s+[A-Za-z{([]|\bany\b|@ts-(?:expect-error|ignore|nocheck)|!\./;

/** tsc on the flow alone: the project's compiler and the packages' types, nothing of the project. */
const tsconfig = {
  compilerOptions: {
    target: 'es2024',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(root, 'node_modules/@types')],
    paths: { 'openapi-fetch': [path.join(root, 'node_modules/openapi-fetch/dist/index.d.mts')] },
  },
  files: ['flow.ts'],
};

let server: TestServer;
let dir: string;
before(async () => {
  server = await startTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'coffer-generated-client-'));
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

it('openapi-typescript types the live document, and openapi-fetch runs sign-up, sign-in, upload, verify, download and a listing with them, without a cast', async () => {
  const document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  const types = astToString(await openapiTS(document, { transform: binaryAsBytes }));
  // The generator read the binary parts as such, not as JSON.
  const expected = {
    'a raw upload body taking bytes': /"application\/octet-stream": Blob \| ArrayBuffer \| Uint8Array;/,
    "a multipart upload's data part as a Blob":
      /"multipart\/form-data": \{\s*\/\*\* Format: binary \*\/\s*data: Blob;/,
    'a download as a Blob': /"application\/octet-stream": Blob;/,
    'an ETag header': /ETag\?: string;/,
  };
  for (const [what, pattern] of Object.entries(expected))
    assert.ok(pattern.test(types), `no ${what} in the types`);
  assert.doesNotMatch(flowSource, casts, 'the flow calls the generated client without a cast');
  await writeFile(path.join(dir, 'coffer-api.ts'), types);
  await writeFile(path.join(dir, 'flow.ts'), flowSource);
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const checked = await run(tsc, ['-p', dir]).catch((failed: { stdout: string; stderr: string }) => failed);
  assert.equal(`${checked.stdout}${checked.stderr}`, '', 'the flow type-checks against the generated types');

  const { runFlow } = await import(pathToFileURL(path.join(dir, 'flow.ts')).href);
  const content = new TextEncoder().encode('bytes through a generated client\n');
  const outcome = await runFlow(createClient, server.baseUrl, server.credentials, content);
  assert.match(outcome.etag, /^"[0-9a-f]{32}"$/);
  assert.deepEqual(outcome.storedBody, { etag: outcome.etag, sizeBytes: content.byteLength });
  assert.equal(outcome.verified, true);
  assert.equal(outcome.recordEtag, outcome.etag);
  assert.match(outcome.contentType ?? '', /^text\/plain/);
  assert.deepEqual(outcome.downloaded, content);
  assert.equal(outcome.signedIn, true);
  assert.deepEqual(outcome.listed, ['generated/hello.txt']);
});
