import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toApiResponse } from '../support/api-client.ts';
import { freshConnection, type QuotaRaceProject, settled } from './quota-race-target.ts';

/** A user of the race: their token, and the node each of their requests goes to is chosen per step. */
export type RaceUser = { userId: string; token: string };

/** A verified file made before the race: what copies copy, moves move and deletes delete. */
export type SeedFile = { fileId: string; owner: number };

/**
 * One step of a race. Uploads declare their length (reserved at the request) or not (counted
 * at the PUT); copies may copy another user's file (the copy is its copier's: usage moves to
 * another owner); moves and deletes are the seed's owner's.
 */
export type RaceStep =
  | { kind: 'upload'; user: number; node: number; sizeBytes: number; declared: boolean }
  | { kind: 'copy'; user: number; node: number; seed: number }
  | { kind: 'move'; node: number; seed: number }
  | { kind: 'delete'; node: number; seed: number };

const user = fc.integer({ min: 0, max: 1 });
const node = fc.integer({ min: 0, max: 1 });
const seed = fc.integer({ min: 0, max: 3 });

/** Copies weigh most: they are what passed the quotas (issue 25, item 3). */
export const raceStep: fc.Arbitrary<RaceStep> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('upload' as const),
      user,
      node,
      sizeBytes: fc.integer({ min: 1, max: 1500 }),
      declared: fc.boolean(),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('copy' as const), user, node, seed }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), node, seed }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), node, seed }) },
);

/** What the steps may answer: anything else (and any 5xx) fails the run. */
const allowed: Record<RaceStep['kind'], string[]> = {
  upload: ['200', '413 QUOTA_EXCEEDED'],
  copy: ['200', '413 QUOTA_EXCEEDED', '404 FILE_NOT_FOUND'],
  move: ['200', '404 FILE_NOT_FOUND'],
  delete: ['204', '404 FILE_NOT_FOUND'],
};

/** Plays one step; `label` makes its paths unique in the project. */
export async function playStep(
  project: QuotaRaceProject,
  users: RaceUser[],
  seeds: SeedFile[],
  step: RaceStep,
  label: string,
): Promise<void> {
  const client = project.clients[step.node % project.clients.length]!;
  const call = (actor: RaceUser, method: string, path: string, body?: unknown) =>
    settled(() => client.call(method, path, { token: actor.token, body, headers: freshConnection }));
  const expect = (answer: { status: number; body?: { code?: string }; text: string }) => {
    const outcome = answer.status < 300 ? String(answer.status) : `${answer.status} ${answer.body?.code}`;
    assert.ok(allowed[step.kind].includes(outcome), `${step.kind}: ${outcome} ${answer.text}`);
    return answer.status < 300;
  };
  if (step.kind === 'upload') {
    const actor = users[step.user]!;
    const declared = step.declared ? { contentLength: step.sizeBytes } : {};
    const requested = await call(actor, 'POST', '/api/v1/file', { filePath: `${label}.bin`, ...declared });
    if (!expect(requested)) return;
    const stored = await settled(async () =>
      toApiResponse(
        await fetch(requested.body.putFileUrl, {
          method: 'PUT',
          body: new Uint8Array(step.sizeBytes).fill(1),
          headers: { 'content-type': 'application/octet-stream', ...freshConnection },
        }),
      ),
    );
    if (!expect(stored)) return;
    const etag = stored.headers.get('etag');
    expect(await call(actor, 'POST', `/api/v1/file/${requested.body.fileId}/verify`, { etag }));
    return;
  }
  const file = seeds[step.seed % seeds.length];
  if (file === undefined) return; // every seed upload was refused by the quotas
  if (step.kind === 'copy') {
    expect(
      await call(users[step.user]!, 'POST', `/api/v1/file/${file.fileId}/copy`, { filePath: `${label}.bin` }),
    );
  } else if (step.kind === 'move') {
    expect(
      await call(users[file.owner]!, 'POST', `/api/v1/file/${file.fileId}/move`, {
        filePath: `${label}.bin`,
      }),
    );
  } else {
    expect(await call(users[file.owner]!, 'DELETE', `/api/v1/file/${file.fileId}`));
  }
}
