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
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Issue 24: a client generated from the live document by well-kept generators (openapi-typescript
// for the types, openapi-fetch for the calls) runs the whole flow, upload and download included.
// The types exist only once the server answers, so the flow that uses them is written beside
// them: tsc checks it against them, then this test runs it.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/.bin/tsc');

/** The flow, typed by the generated `paths`: each call's path, parameters and answer are checked. */
const flowSource = `import type createClient from 'openapi-fetch';
import type { paths } from './coffer-api.ts';

export type App = { appId: string; appSecret: string };

export async function runFlow(create: typeof createClient, baseUrl: string, app: App, content: Uint8Array) {
  const appHeaders = { 'sb-app-id': app.appId, 'sb-app-secret': app.appSecret };
  const coffer = create<paths>({ baseUrl, headers: appHeaders });
  const signup = await coffer.POST('/api/v1/auth/signup', {
    body: { email: 'generated@example.com', password: 'correct horse battery' },
  });
  if (!signup.data) throw new Error('signup: ' + JSON.stringify(signup.error));
  const authorization = 'Bearer ' + signup.data.token;
  const ticket = await coffer.POST('/api/v1/file', {
    headers: { authorization },
    body: { filePath: 'generated/hello.txt', contentType: 'text/plain', contentLength: content.byteLength },
  });
  if (!ticket.data) throw new Error('upload request: ' + JSON.stringify(ticket.error));
  const fileId = ticket.data.fileId;
  const stored = await coffer.PUT('/blob/v1/files/{fileId}', {
    params: { path: { fileId }, query: linkQuery(ticket.data.putFileUrl) },
    headers: { 'content-type': 'text/plain' },
    // The document's binary body is a string to the types; the bytes go through untouched.
    body: content as unknown as string,
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
  const downloaded = await coffer.GET('/blob/v1/files/{fileId}', {
    params: { path: { fileId }, query: linkQuery(record.data.url) },
    parseAs: 'arrayBuffer',
  });
  if (!downloaded.data) throw new Error('download: ' + JSON.stringify(downloaded.error));
  return {
    storedBody: stored.data,
    etag,
    verified: verified.data.verified,
    recordEtag: record.data.etag,
    contentType: downloaded.response.headers.get('content-type'),
    downloaded: new Uint8Array(downloaded.data),
  };
}

/** A signed link's query string, in its signed order (the generated client sends keys in order). */
function linkQuery(url: string) {
  const query = new URL(url).searchParams;
  const gen = query.get('gen');
  const ver = query.get('ver');
  return {
    exp: Number(query.get('exp')),
    ...(gen === null ? {} : { gen: Number(gen) }),
    ...(ver === null ? {} : { ver }),
    kid: query.get('kid') ?? '',
    sig: query.get('sig') ?? '',
  };
}
`;

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

it('openapi-typescript types the live document, and openapi-fetch runs upload, verify and download with them', async () => {
  const document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
  const types = astToString(await openapiTS(document));
  // The generator read the binary parts as such, not as JSON.
  const expected = {
    'a raw upload body': /"application\/octet-stream": string;/,
    "a multipart upload's data part":
      /"multipart\/form-data": \{\s*\/\*\* Format: binary \*\/\s*data: string;/,
    'an ETag header': /ETag\?: string;/,
  };
  for (const [what, pattern] of Object.entries(expected))
    assert.ok(pattern.test(types), `no ${what} in the types`);
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
});
