import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openBlobStore } from '../../src/blob-stores/open-blob-store.ts';
import { type CofferProcess, runCli } from '../support/coffer-process.ts';
import { listReferencedBlobs, type Target } from '../support/database-integrity.ts';

/** Where the server keeps its bytes: its stack's S3 prefix, else the data dir's blobs. */
const toStorageUrl = (target: Target) =>
  target.env.COFFER_STORAGE_URL ?? `file:${path.join(target.dataDir, 'blobs')}`;

/** The blob versions some row names that the store does not hold (`<key>.<version>` each). */
export async function findMissingBlobs(target: Target): Promise<string[]> {
  const blobs = await openBlobStore(toStorageUrl(target));
  try {
    const missing: string[] = [];
    for (const { key, version } of await listReferencedBlobs(target))
      if (!(await blobs.head(key, version))) missing.push(`${key}.${version}`);
    return missing;
  } finally {
    if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
  }
}

/** No record points at bytes the store does not hold: every version a record needs is there. */
export async function assertReferencedBlobsStored(target: Target): Promise<void> {
  assert.deepEqual(await findMissingBlobs(target), [], 'records pointing at bytes the store does not hold');
}

/**
 * `coffer gc` (a dry run) on the restarted server's stores, with a grace period just past a
 * short request timeout so that what a crash left behind counts as stray: it runs, and no
 * version it would remove is one a record (a copy's included) still needs. Answers how many
 * versions it found stray (deletes whose discard the kill cut off leave some).
 */
export async function assertGcSparesReferencedBlobs(coffer: CofferProcess): Promise<number> {
  const gc = await runCli(['gc', '--json', '--data-dir', coffer.dataDir], {
    ...coffer.env,
    COFFER_REQUEST_TIMEOUT_SECONDS: '1',
    COFFER_GC_GRACE_SECONDS: '2',
  });
  assert.equal(gc.code, 0, `coffer gc: ${gc.stderr}`);
  const report = JSON.parse(gc.stdout) as { items: { kind: string; name: string }[] };
  const referenced = new Set(
    (await listReferencedBlobs(coffer)).map(({ key, version }) => `${key}.${version}`),
  );
  const strays = report.items.filter((item) => item.kind === 'version');
  assert.deepEqual(
    strays.filter((item) => referenced.has(item.name)).map((item) => item.name),
    [],
    'coffer gc calls stray a version a record needs',
  );
  return strays.length;
}

/**
 * `coffer gc --apply` on the restarted server's stores, with a grace period just past a short
 * request timeout, once that grace has passed since the round's last write (`since`): what a
 * crash left behind is then removed for good. Answers how many versions it removed; the
 * caller holds the stores to their integrity again (no version a row names may have gone).
 */
export async function applyGcAfterGrace(coffer: CofferProcess, since: number): Promise<number> {
  const graceSeconds = 2;
  await delay(Math.max(0, since + (graceSeconds + 1) * 1000 - Date.now()));
  const gc = await runCli(['gc', '--apply', '--json', '--data-dir', coffer.dataDir], {
    ...coffer.env,
    COFFER_REQUEST_TIMEOUT_SECONDS: '1',
    COFFER_GC_GRACE_SECONDS: String(graceSeconds),
  });
  assert.equal(gc.code, 0, `coffer gc --apply: ${gc.stderr}`);
  const report = JSON.parse(gc.stdout) as { items: { kind: string }[] };
  return report.items.filter((item) => item.kind === 'version').length;
}
