import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { MemoryBlobStore } from '../../src/blob-stores/memory-blob-store.ts';
import { exportBlobs } from '../../src/cli/export-blobs.ts';
import { leaveOutFiles } from '../../src/cli/export-metadata.ts';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { newFile, newProjectId, T0 } from '../contract/repository-fixtures.ts';
import { currentStackName } from '../support/test-stack.ts';

const silent = { phase() {}, advance() {}, finish() {} };
const bytes = Buffer.from('the bytes of a verified file');
const sha256 = createHash('sha256').update(bytes).digest('base64');

/** The second pass of an export: bytes read after the snapshot, when files may be gone. */
describe('exportBlobs after the snapshot', {
  skip: currentStackName() === 'pg-s3' && 'its own stores: runs in the embedded pass',
}, () => {
  let work: string;
  let outDir: string;
  let database: Database;
  let blobs: MemoryBlobStore;
  let projectId: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-export-blobs-'));
  });
  after(() => rm(work, { recursive: true, force: true }));
  beforeEach(async () => {
    outDir = await mkdtemp(path.join(work, 'out-'));
    database = await openDatabase({ databaseUrl: 'sqlite::memory:' });
    await migrateToLatest(database.db);
    projectId = await newProjectId(createRepositories(database.db));
    blobs = new MemoryBlobStore();
  });

  /** A metadata file as the snapshot wrote it: one verified file and its ACL entry. */
  async function snapshotOf(row: Record<string, unknown>): Promise<string> {
    const file = path.join(outDir, 'metadata.ndjson.partial');
    const acl = { file_id: row.id, scope: 'user', identifier: 'u1' };
    const lines = [
      { table: 'files', row },
      { table: 'file_acl', row: acl },
    ];
    await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return file;
  }

  const verifiedRow = (id: string, version: string, overrides: Record<string, unknown> = {}) => ({
    id,
    project_id: projectId,
    verified: 1,
    blob_version: version,
    blob_file_id: null,
    content_type: 'text/plain',
    content_size_bytes: bytes.length,
    content_sha256: sha256,
    ...overrides,
  });

  const run = (metadataFile: string) =>
    exportBlobs({ metadataFile, outDir, blobs, database, progress: silent, verifiedFiles: 1 });

  it('copies the bytes with a sidecar of what it measured', async () => {
    const stored = await blobs.put(`${projectId}/f1`, Readable.from([bytes]), {
      contentType: 'text/plain',
      maxBytes: 1024,
    });
    const result = await run(await snapshotOf(verifiedRow('f1', stored.version)));
    assert.equal(result.blobs, 1);
    const file = path.join(outDir, 'blobs', projectId, 'f1');
    assert.deepEqual(await readFile(file), bytes);
    const sidecar = JSON.parse(await readFile(`${file}.json`, 'utf8'));
    assert.deepEqual([sidecar.sizeBytes, sidecar.sha256], [bytes.length, sha256]);
  });

  it('leaves out a file deleted since the snapshot, with its bytes, and its ACL entries', async () => {
    const metadata = await snapshotOf(verifiedRow('gone-file', 'a'.repeat(24)));
    const result = await run(metadata);
    assert.deepEqual([...result.deletedMeanwhile], ['gone-file']);
    assert.equal(result.blobs, 0);
    const counts = await leaveOutFiles(metadata, result.deletedMeanwhile);
    assert.deepEqual(counts, {});
    assert.equal(await readFile(metadata, 'utf8'), '');
  });

  it('fails when a file that still exists has no bytes', async () => {
    const { file } = await createRepositories(database.db).files.create(newFile(projectId), T0);
    await assert.rejects(run(await snapshotOf(verifiedRow(file.id, 'b'.repeat(24)))), (error: Error) =>
      error.message.includes(`${projectId}/${file.id} has no bytes`),
    );
  });

  it('fails when the store answers bytes that differ from the record', async () => {
    const stored = await blobs.put(`${projectId}/f2`, Readable.from([bytes.subarray(1)]), {
      contentType: 'text/plain',
      maxBytes: 1024,
    });
    await assert.rejects(run(await snapshotOf(verifiedRow('f2', stored.version))), /its record says/);
  });
});
