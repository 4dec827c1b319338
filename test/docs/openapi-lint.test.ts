import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { promisify } from 'node:util';
import { errorCodes } from '../../src/errors/error-codes.ts';
import { operations } from '../../src/http/openapi/operations.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const run = promisify(execFile);
const redocly = path.resolve(import.meta.dirname, '../../node_modules/.bin/redocly');

type Document = {
  servers: { url: string }[];
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { description: string }> }>
  >;
  components: { schemas: Record<string, { properties?: { code?: { enum?: string[] } } }> };
};

let server: TestServer;
let document: Document;
before(async () => {
  server = await startTestServer();
  document = await (await fetch(`${server.baseUrl}/docs/json`)).json();
});
after(() => server.stop());

it('passes `redocly lint` with the recommended rules: no error, no warning', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'coffer-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const linted = await run(redocly, ['lint', file, '--extends=recommended', '--format=stylish'], {
      cwd: dir,
    }).catch((failed: { stdout: string; stderr: string }) => failed);
    const output = `${linted.stdout}${linted.stderr}`;
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /warning/i, output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('describes every operation of the table, each with its name, and lists servers', () => {
  const described = new Map<string, string>();
  for (const [route, byMethod] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(byMethod))
      described.set(`${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ':$1')}`, operation.operationId);
  for (const [key, operation] of Object.entries(operations)) {
    assert.equal(described.get(key), operation.operationId, `${key} is missing or misnamed`);
  }
  assert.deepEqual(
    document.servers.map((entry) => entry.url),
    [server.baseUrl],
  );
});

it('names every error code, and attaches each to the operations that may answer it', () => {
  assert.deepEqual(
    [...(document.components.schemas.Error?.properties?.code?.enum ?? [])].sort(),
    Object.keys(errorCodes).sort(),
  );
  const attached = new Set<string>();
  for (const byMethod of Object.values(document.paths))
    for (const operation of Object.values(byMethod))
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const code of /^Error: (.*)$/.exec(response.description)?.[1]?.split(', ') ?? []) {
          // One code answers two statuses: a mail's token in a body is 400 (docs/errors.md).
          const usual = String(errorCodes[code as keyof typeof errorCodes]);
          const accepted = code === 'INVALID_TOKEN' ? [usual, '400'] : [usual];
          assert.ok(accepted.includes(status), `${code} under ${status}`);
          attached.add(code);
        }
      }
  // A route that does not exist, or a method it does not take: no operation to attach them to.
  const routeless = ['NOT_FOUND', 'METHOD_NOT_ALLOWED'];
  assert.deepEqual(
    Object.keys(errorCodes).filter((code) => !attached.has(code) && !routeless.includes(code)),
    [],
  );
});
