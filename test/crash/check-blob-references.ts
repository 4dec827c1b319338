import assert from 'node:assert/strict';
import path from 'node:path';
import { openBlobStore } from '../../src/services.ts';
import { type CofferProcess, runCli } from '../support/coffer-process.ts';
import { listReferencedBlobs } from '../support/database-integrity.ts';

/** Where the server keeps its bytes: its stack's S3 prefix, else the data dir's blobs. */
const toStorageUrl = (coffer: CofferProcess) =>
  coffer.env.COFFER_STORAGE_URL ?? `file:${path.join(coffer.dataDir, 'blobs')}`;

/** No record points at bytes the store does not hold: every version a record needs is there. */
export async function assertReferencedBlobsStored(coffer: CofferProcess): Promise<void> {
  const blobs = openBlobStore(toStorageUrl(coffer));
  try {
    const missing: string[] = [];
    for (const { key, version } of await listReferencedBlobs(coffer))
      if (!(await blobs.head(key, version))) missing.push(`${key}.${version}`);
    assert.deepEqual(missing, [], 'records pointing at bytes the store does not hold');
  } finally {
    if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
  }
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
