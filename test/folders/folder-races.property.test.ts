import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { ApiResponse } from '../support/api-client.ts';
import { chooseSeed, isLongRun } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

// Issue 36, "atomic under concurrency": a folder move or delete races upload requests, copies,
// single moves and single deletes of one owner's files. Afterwards the files must be where SOME
// serial order of the calls that succeeded puts them (each file wholly inside or wholly outside
// the folder change, never lost, duplicated or half-moved), the folder change's answer must count
// what that order had under the folder, and the storage usage must equal a recount of the rows.

const stack = currentStackName();
const from = 'd/';
const to = 'm/';
/** Seeds and targets: inside the folder, beside it (`d2/`: a prefix trap), and at the move's target. */
const seedPaths = ['d/a.txt', 'd/sub/b.txt', 'd/c.txt', 'o/e.txt', 'm/f.txt', 'd2/g.txt'];
const targetPaths = ['d/n.txt', 'd/sub/n.txt', 'm/a.txt', 'm/n.txt', 'o/n.txt', 'd2/n.txt', 'd/a.txt'];

type Race =
  | { kind: 'upload'; path: string }
  | { kind: 'copy'; seed: number; path: string }
  | { kind: 'move'; seed: number; path: string }
  | { kind: 'delete'; seed: number };
type FolderChange = 'move' | 'delete';

/** What a call that succeeded did, for the serial model. */
type Applied =
  | { kind: 'create'; id: string; path: string; sourceId?: string }
  | { kind: 'move'; id: string; path: string }
  | { kind: 'delete'; id: string }
  | { kind: 'folder'; change: FolderChange; count: number };

const race: fc.Arbitrary<Race> = fc.oneof(
  fc.record({ kind: fc.constant('upload' as const), path: fc.constantFrom(...targetPaths) }),
  fc.record({
    kind: fc.constant('copy' as const),
    seed: fc.nat({ max: 5 }),
    path: fc.constantFrom(...targetPaths),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    seed: fc.nat({ max: 5 }),
    path: fc.constantFrom(...targetPaths),
  }),
  fc.record({ kind: fc.constant('delete' as const), seed: fc.nat({ max: 5 }) }),
);

describe(`folder changes racing single-file calls (${stack})`, () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('every file ends where a serial order of the successful calls puts it; usage equals the rows', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(seedPaths, { minLength: 2 }),
        fc.constantFrom<FolderChange>('move', 'delete'),
        fc.array(race, { minLength: 2, maxLength: 5 }),
        async (seeds, change, races) => {
          const owner = await server.client.signup(`race-${++runs}-${Date.now()}@example.com`);
          const call = (method: string, path: string, body?: unknown) =>
            server.client.call(method, path, { token: owner.token, body });
          const seedIds: string[] = [];
          const start = new Map<string, string>();
          for (const path of seeds) {
            const made = await server.client.uploadFile(owner.token, path, `seed ${path}`);
            seedIds.push(made._id);
            start.set(made._id, path);
          }
          const seedOf = (index: number) => seedIds[index % seedIds.length]!;
          const folderCall = () =>
            change === 'move'
              ? call('POST', '/api/v1/folders/move', { from, to })
              : call('POST', '/api/v1/folders/delete', { path: from });
          const [folderAnswer, ...answers] = await Promise.all([
            folderCall(),
            ...races.map((step) => playRace(step, call, seedOf)),
          ]);
          const applied: Applied[] = [];
          expectStatus(folderAnswer!, [200, 404, 409]);
          if (folderAnswer!.status === 200)
            applied.push({
              kind: 'folder',
              change,
              count: change === 'move' ? folderAnswer!.body.moved : folderAnswer!.body.deleted,
            });
          for (const [index, step] of races.entries()) {
            const answer = answers[index]!;
            expectStatus(answer, [200, 204, 403, 404, 409]);
            if (answer.status >= 300) continue;
            if (step.kind === 'upload')
              applied.push({ kind: 'create', id: answer.body.fileId, path: step.path });
            if (step.kind === 'copy')
              applied.push({
                kind: 'create',
                id: answer.body._id,
                path: step.path,
                sourceId: seedOf(step.seed),
              });
            if (step.kind === 'move') applied.push({ kind: 'move', id: seedOf(step.seed), path: step.path });
            if (step.kind === 'delete') applied.push({ kind: 'delete', id: seedOf(step.seed) });
          }
          const actual = await filesOf(owner.userId);
          const explained = someSerialOrder(start, applied, actual);
          assert.ok(
            explained,
            `no serial order of ${JSON.stringify(applied)} from ${JSON.stringify([...start])} ends at ${JSON.stringify([...actual])}`,
          );
          await assertUsageEqualsRows(owner.userId, actual.size);
        },
      ),
      { seed: chooseSeed('folder races'), numRuns: numRuns(), endOnFailure: true },
    );
  });

  /** The owner's files (verified or not), id → path, read from the database. */
  const filesOf = async (ownerId: string) => {
    const files = await server.services.repositories.files.browse({
      projectId: server.credentials.projectId,
      creatorId: ownerId,
      limit: 1000,
    });
    return new Map(files.map((file) => [file.id, file.filePath]));
  };

  const assertUsageEqualsRows = async (ownerId: string, fileCount: number) => {
    const { projectId } = server.credentials;
    const files = await server.services.repositories.files.browse({
      projectId,
      creatorId: ownerId,
      limit: 1000,
    });
    const bytes = files.reduce(
      (sum, file) =>
        sum +
        (file.verified
          ? file.content!.sizeBytes
          : (file.pendingUpload?.sizeBytes ?? file.declared.sizeBytes ?? 0)),
      0,
    );
    const usage = await server.services.repositories.storageUsage.find({ projectId, userId: ownerId });
    assert.deepEqual(usage.user, { files: fileCount, bytes });
  };
});

/** One racing call; an upload is its request, then its PUT and verify (which may find the record gone). */
async function playRace(
  step: Race,
  call: (method: string, path: string, body?: unknown) => Promise<ApiResponse>,
  seedOf: (index: number) => string,
): Promise<ApiResponse> {
  switch (step.kind) {
    case 'upload': {
      const requested = await call('POST', '/api/v1/file', { filePath: step.path });
      if (requested.status !== 200) return requested;
      const put = await fetch(requested.body.putFileUrl, { method: 'PUT', body: 'raced bytes' });
      const etag = put.headers.get('etag');
      await put.arrayBuffer();
      if (put.status === 200) await call('POST', `/api/v1/file/${requested.body.fileId}/verify`, { etag });
      return requested;
    }
    case 'copy':
      return call('POST', `/api/v1/file/${seedOf(step.seed)}/copy`, { filePath: step.path });
    case 'move':
      return call('POST', `/api/v1/file/${seedOf(step.seed)}/move`, { filePath: step.path });
    case 'delete':
      return call('DELETE', `/api/v1/file/${seedOf(step.seed)}`);
  }
}

/** Refusals are the API's own (a 4xx with its code): never a 5xx. */
const expectedCodes: Record<number, string[]> = {
  403: ['ACCESS_DENIED'],
  404: ['FILE_NOT_FOUND', 'FOLDER_NOT_FOUND'],
  409: ['FILE_EXISTS', 'FILE_NOT_VERIFIED', 'FOLDER_CONFLICT'],
};
function expectStatus(answer: ApiResponse, allowed: number[]) {
  assert.ok(allowed.includes(answer.status), `${answer.status} ${answer.text}`);
  if (answer.status >= 300) assert.ok(expectedCodes[answer.status]?.includes(answer.body.code), answer.text);
}

/**
 * Whether applying the successful calls in some order, each valid where it stands, from `start`
 * ends at `actual`. A folder change must find exactly the count it answered under the folder,
 * and a move no clash (every call that succeeded was valid when it ran, under some order).
 */
function someSerialOrder(
  start: Map<string, string>,
  applied: Applied[],
  actual: Map<string, string>,
): boolean {
  const tryFrom = (state: Map<string, string>, left: Applied[]): boolean => {
    if (left.length === 0) return sameFiles(state, actual);
    return left.some((step, index) => {
      const next = apply(state, step);
      return next !== undefined && tryFrom(next, [...left.slice(0, index), ...left.slice(index + 1)]);
    });
  };
  return tryFrom(start, applied);
}

/** The state after one call, or undefined when the call could not have succeeded there. */
function apply(state: Map<string, string>, step: Applied): Map<string, string> | undefined {
  const next = new Map(state);
  const taken = (path: string) => [...state.values()].includes(path);
  switch (step.kind) {
    case 'create':
      if (taken(step.path) || (step.sourceId !== undefined && !state.has(step.sourceId))) return undefined;
      next.set(step.id, step.path);
      return next;
    case 'move':
      if (!state.has(step.id)) return undefined;
      if (state.get(step.id) !== step.path && taken(step.path)) return undefined;
      next.set(step.id, step.path);
      return next;
    case 'delete':
      if (!next.delete(step.id)) return undefined;
      return next;
    case 'folder': {
      const under = [...state].filter(([, path]) => path.startsWith(from));
      if (under.length !== step.count) return undefined;
      for (const [id, path] of under) {
        if (step.change === 'delete') next.delete(id);
        else next.set(id, to + path.slice(from.length));
      }
      if (step.change === 'move') {
        const outside = [...state].filter(([, path]) => !path.startsWith(from)).map(([, path]) => path);
        if (under.some(([, path]) => outside.includes(to + path.slice(from.length)))) return undefined;
      }
      return next;
    }
  }
}

function sameFiles(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([id, path]) => b.get(id) === path);
}

/** Each run is a real race over HTTP: a few on each stack, ten times as many in a long run. */
function numRuns(): number {
  const base = stack === 'embedded' ? 40 : 20;
  return isLongRun ? base * 10 : base;
}
