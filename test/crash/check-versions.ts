import assert from 'node:assert/strict';
import type { ApiClient } from '../support/api-client.ts';
import { etagsOf } from '../support/byte-streams.ts';
import type { Content, FileState, KnownFile, Lineage } from './version-model.ts';

/** How the steps the kill cut off came out, for the test's diagnostics. */
export type VersionsOutcome = { files: number; inDoubt: number; appliedInDoubt: number; finished: number };

/** What the restarted server shows of a file. */
type Observed = FileState & { etag?: string; sizeBytes?: number };

/**
 * Holds the restarted server to what the clients of a killed versions round saw:
 * - every file is in the state its answered steps left, or, when the kill cut a step off, in
 *   the state that step makes: where it is (live, trashed, purged), its current version, its
 *   earlier versions, its hold; nothing in between;
 * - a live file's current and earlier versions each download exactly the bytes made for them;
 * - a copy cut off is there whole at its path or not at all; nothing else is listed;
 * - a replace whose PUT was answered but not its verify can still be verified: its bytes were kept.
 */
export async function checkVersionsAfterRestart(options: {
  client: ApiClient;
  prefix: string;
  lineages: Lineage[];
  versionsKept: number;
}): Promise<VersionsOutcome> {
  const { client, lineages } = options;
  const outcome: VersionsOutcome = { files: 0, inDoubt: 0, appliedInDoubt: 0, finished: 0 };
  for (const lineage of lineages) {
    const { token } = lineage;
    for (const file of lineage.files) {
      const where = `l${lineage.index} ${file.filePath} (${file.fileId})`;
      const observed = await observe(client, token, file);
      outcome.files += 1;
      if (file.ifApplied) outcome.inDoubt += 1;
      const applied = file.ifApplied;
      if (!matches(observed, file.state, file)) {
        assert.ok(
          applied && matches(observed, applied, file),
          `${where}: ${JSON.stringify(observed)} is neither ${JSON.stringify(file.state)} nor ${JSON.stringify(applied ?? 'a cut-off step')}`,
        );
        outcome.appliedInDoubt += 1;
        // A cut-off restore made a version whose id only the restarted server tells.
        if (applied.versionId === '?') file.contents.set(observed.versionId, applied.content!);
        file.state = {
          place: applied.place,
          versionId: observed.versionId,
          earlier: applied.earlier,
          held: applied.held,
        };
      }
      file.ifApplied = undefined;
      if (observed.place === 'live') await assertVersionsRead(client, token, file, where);
    }
    await checkPendingCopy(client, options.prefix, lineage, outcome);
    if (await finishPendingReplace(client, lineage, options.versionsKept)) outcome.finished += 1;
  }
  return outcome;
}

/** Where the file is and what it shows (its earlier versions when live). */
async function observe(client: ApiClient, token: string, file: KnownFile): Promise<Observed> {
  const got = await client.call('GET', `/api/v1/file/${file.fileId}`, { token });
  if (got.status === 200) {
    const versions = await client.call('GET', `/api/v1/file/${file.fileId}/versions`, { token });
    assert.equal(versions.status, 200, versions.text);
    const earlier = (versions.body as { versionId: string; current: boolean }[])
      .filter((version) => !version.current)
      .map((version) => version.versionId);
    return { place: 'live', earlier, ...shown(got.body) };
  }
  assert.equal(got.body?.code, 'FILE_NOT_FOUND', `${file.fileId}: ${got.status} ${got.text}`);
  const trash = await client.call('GET', '/api/v1/trash?pageSize=100', { token });
  assert.equal(trash.status, 200, trash.text);
  const item = (trash.body.items as (ShownRecord & { _id: string })[]).find(
    (trashed) => trashed._id === file.fileId,
  );
  if (item) return { place: 'trashed', earlier: [], ...shown(item) };
  return { place: 'purged', versionId: '', earlier: [], held: false };
}

/** The fields of a record (or a trash item) a state is judged by. */
type ShownRecord = { versionId: string; etag?: string; meta?: { ContentLength?: string }; hold?: unknown };

const shown = (record: ShownRecord) => ({
  versionId: record.versionId,
  etag: record.etag,
  sizeBytes: Number(record.meta?.ContentLength),
  held: record.hold !== undefined,
});

/** Whether the file shows this state (its earlier versions, as a set, only when it is live). */
function matches(observed: Observed, expected: FileState & { content?: Content }, file: KnownFile): boolean {
  if (observed.place !== expected.place) return false;
  if (observed.place === 'purged') return true;
  const newId = expected.versionId === '?';
  if (newId ? file.contents.has(observed.versionId) : observed.versionId !== expected.versionId) return false;
  const content = expected.content ?? file.contents.get(expected.versionId);
  if (!content || !isContent(content, observed.etag, observed.sizeBytes)) return false;
  if (observed.held !== expected.held) return false;
  if (observed.place !== 'live') return true;
  return (
    observed.earlier.length === expected.earlier.length &&
    expected.earlier.every((versionId) => observed.earlier.includes(versionId))
  );
}

const isContent = (content: Content, etag: string | undefined, sizeBytes: number | undefined) =>
  etag !== undefined && content.etags.includes(etag) && content.sizeBytes === sizeBytes;

/** The current version and each earlier one download exactly the bytes made for them. */
export async function assertVersionsRead(
  client: ApiClient,
  token: string,
  file: KnownFile,
  where: string,
): Promise<void> {
  for (const versionId of [file.state.versionId, ...file.state.earlier]) {
    const content = file.contents.get(versionId);
    assert.ok(content, `${where}: a version nobody made (${versionId})`);
    const record = await client.call('GET', `/api/v1/file/${file.fileId}?versionId=${versionId}`, { token });
    assert.equal(record.status, 200, `${where} ${versionId}: ${record.text}`);
    assert.ok(
      isContent(content, record.body.etag, Number(record.body.meta.ContentLength)),
      `${where} ${versionId}: record`,
    );
    const download = await fetch(record.body.url);
    assert.equal(download.status, 200, `${where} ${versionId}: download`);
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.equal(bytes.length, content.sizeBytes, `${where} ${versionId}: downloaded size`);
    assert.ok(
      etagsOf(bytes).includes(record.body.etag),
      `${where} ${versionId}: downloaded bytes are not the version's`,
    );
  }
}

/** A copy cut off by the kill is there whole at its path or not at all; nothing else is listed. */
async function checkPendingCopy(
  client: ApiClient,
  prefix: string,
  lineage: Lineage,
  outcome: VersionsOutcome,
) {
  const { token } = lineage;
  const listed = await client.call('GET', `/api/v1/file?pageSize=100&filePath=${prefix}/l${lineage.index}/`, {
    token,
  });
  assert.equal(listed.status, 200, listed.text);
  const known = new Set(lineage.files.map((file) => file.fileId));
  for (const record of listed.body.docs as { _id: string; filePath: string }[]) {
    if (known.has(record._id)) continue;
    const copy = lineage.pendingCopy;
    assert.equal(
      record.filePath,
      copy?.filePath,
      `${record.filePath} (${record._id}): a record nobody asked for`,
    );
    outcome.inDoubt += 1;
    outcome.appliedInDoubt += 1;
    const file: KnownFile = {
      fileId: record._id,
      filePath: record.filePath,
      contents: new Map([[record._id, copy!.content]]),
      state: { place: 'live', versionId: record._id, earlier: [], held: false },
    };
    lineage.files.push(file);
    await assertVersionsRead(client, token, file, `${record.filePath}: a cut-off copy`);
  }
  lineage.pendingCopy = undefined;
}

/**
 * A replace cut off after its PUT: a PUT answered 200 kept its bytes, so verifying now makes
 * them current; one cut off may or may not have. Answers whether a replace was finished.
 */
async function finishPendingReplace(
  client: ApiClient,
  lineage: Lineage,
  versionsKept: number,
): Promise<boolean> {
  const pending = lineage.pendingReplace;
  lineage.pendingReplace = undefined;
  if (!pending?.put.sent || pending.file.state.place !== 'live') return false;
  const { file, versionId, put } = pending;
  if (file.state.versionId === versionId) return false; // its verify applied before the kill
  const where = `l${lineage.index} ${file.filePath}: the replace cut off after its PUT`;
  for (const etag of put.etags) {
    const verified = await client.call('POST', pending.verifyPath, { token: lineage.token, body: { etag } });
    if (verified.status === 200) {
      file.contents.set(versionId, put);
      const earlier = [file.state.versionId, ...file.state.earlier].slice(0, versionsKept);
      file.state = { ...file.state, versionId, earlier };
      const observed = await observe(client, lineage.token, file);
      assert.ok(
        matches(observed, file.state, file),
        `${where}: verified, it shows ${JSON.stringify(observed)}`,
      );
      await assertVersionsRead(client, lineage.token, file, where);
      return true;
    }
    assert.ok(
      ['ETAG_MISMATCH', 'UPLOAD_MISSING'].includes(verified.body?.code),
      `${where}: verify answered ${verified.status} ${verified.text}`,
    );
  }
  assert.equal(put.answered, false, `${where}: the PUT answered 200 cannot be verified`);
  return false;
}

/**
 * After `coffer gc --apply`: every live file still reads back every version, and every
 * trashed one restores whole (its current and earlier versions, each with its own bytes).
 */
export async function assertLineagesRead(client: ApiClient, lineages: Lineage[]): Promise<void> {
  for (const lineage of lineages) {
    for (const file of lineage.files) {
      const where = `l${lineage.index} ${file.filePath} (${file.fileId}) after gc`;
      if (file.state.place === 'trashed') {
        const restored = await client.call('POST', `/api/v1/trash/${file.fileId}/restore`, {
          token: lineage.token,
        });
        assert.equal(restored.status, 200, `${where}: restore ${restored.text}`);
        file.state = { ...file.state, place: 'live' };
        const observed = await observe(client, lineage.token, file);
        assert.ok(matches(observed, file.state, file), `${where}: restored as ${JSON.stringify(observed)}`);
      }
      if (file.state.place === 'live') await assertVersionsRead(client, lineage.token, file, where);
    }
  }
}
