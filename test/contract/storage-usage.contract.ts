import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PendingUpload } from '../../src/domain/files/file-record.ts';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { newId } from '../../src/domain/ids.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { storageUsage } from '../../src/persistence/migrations/storage-usage.ts';
import { addTrashBytes } from '../../src/persistence/migrations/versions-and-trash.ts';
import { newFile, newProjectId, type RepositoryFixture, T0 } from './repository-fixtures.ts';

const noQuotas: QuotaLimits = {
  userQuotaBytes: null,
  userQuotaFiles: null,
  projectQuotaBytes: null,
  projectQuotaFiles: null,
};
const upload = (sizeBytes: number): PendingUpload => ({
  blobVersion: newId(),
  etag: `"${newId()}"`,
  sizeBytes,
  contentType: 'text/plain',
  lastModified: T0,
  checksumSha256: null,
});

/** Usage per user and per project (migration 0010_storage_usage), kept by triggers on files. */
export function runStorageUsageContract(fixture: RepositoryFixture): void {
  describe('storage usage', () => {
    const usageOf = (projectId: string, userId: string) =>
      fixture.repos.storageUsage.find({ projectId, userId });

    it('counts every record: declared length, then its pending upload, then its content; delete gives it back', async () => {
      const projectId = await newProjectId(fixture.repos);
      const creatorId = newId();
      const { file } = await fixture.repos.files.create(
        newFile(projectId, {
          creatorId,
          declared: { sizeBytes: 40, contentType: null, checksumSha256: null },
        }),
        T0,
      );
      assert.deepEqual(await usageOf(projectId, creatorId), {
        user: { files: 1, bytes: 40 },
        project: { files: 1, bytes: 40 },
      });
      const first = upload(40);
      await fixture.repos.files.commitUpload(file.id, first, noQuotas);
      await fixture.repos.files.commitUpload(file.id, upload(25), noQuotas);
      assert.deepEqual((await usageOf(projectId, creatorId)).user, { files: 1, bytes: 25 });
      const current = await fixture.repos.files.findById(file.id);
      await fixture.repos.files.markVerified(
        file.id,
        {
          blobVersion: current!.pendingUpload!.blobVersion,
          etag: current!.pendingUpload!.etag,
          content: { sizeBytes: 25, contentType: 'text/plain', lastModified: T0 },
          pendingVersion: current!.pendingUpload!.blobVersion,
        },
        T0,
      );
      const other = newId();
      await fixture.repos.files.create(newFile(projectId, { creatorId: other }), T0);
      assert.deepEqual(await usageOf(projectId, creatorId), {
        user: { files: 1, bytes: 25 },
        project: { files: 2, bytes: 25 },
      });
      assert.equal(await fixture.repos.files.delete(file.id), true);
      assert.deepEqual(await usageOf(projectId, creatorId), {
        user: { files: 0, bytes: 0 },
        project: { files: 1, bytes: 0 },
      });
    });

    it('refuses, in the same transaction, a write that takes usage past a quota, and keeps nothing of it', async () => {
      const projectId = await newProjectId(fixture.repos);
      const creatorId = newId();
      const quotas = { ...noQuotas, userQuotaFiles: 1, userQuotaBytes: 10 };
      const { file } = await fixture.repos.files.create(newFile(projectId, { creatorId }), T0, quotas);
      const refused = await fixture.repos.files
        .create(newFile(projectId, { creatorId }), T0, quotas)
        .catch((e) => e);
      assert.ok(isAppError(refused) && refused.code === 'QUOTA_EXCEEDED', String(refused));
      const tooBig = await fixture.repos.files.commitUpload(file.id, upload(11), quotas).catch((e) => e);
      assert.ok(isAppError(tooBig) && tooBig.code === 'QUOTA_EXCEEDED', String(tooBig));
      assert.equal((await fixture.repos.files.findById(file.id))?.pendingUpload, null);
      assert.deepEqual((await usageOf(projectId, creatorId)).user, { files: 1, bytes: 0 });
    });

    it('lets concurrent copies (two handles) commit only what a quota has room for, atomically', async () => {
      // Issue 25, item 3: each copy is checked under the write that adds it, as uploads are.
      const other = await fixture.openAnother();
      const projectId = await newProjectId(fixture.repos);
      const creatorId = newId();
      const { file } = await fixture.repos.files.create(newFile(projectId, { creatorId }), T0);
      const stored = upload(400);
      await fixture.repos.files.commitUpload(file.id, stored);
      const content = { sizeBytes: 400, contentType: 'text/plain', lastModified: T0 };
      const pin = { blobVersion: stored.blobVersion, etag: stored.etag, content };
      await fixture.repos.files.markVerified(file.id, { ...pin, pendingVersion: stored.blobVersion }, T0);
      const quotas = { ...noQuotas, userQuotaBytes: 1024, projectQuotaFiles: 3 };
      const copies = await Promise.allSettled(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? fixture.repos : other.repos).files.createCopy(
            { ...newFile(projectId, { creatorId }), sourceId: file.id },
            T0,
            quotas,
          ),
        ),
      );
      const kept = copies.filter((copy) => copy.status === 'fulfilled');
      const refused = copies.flatMap((copy) => (copy.status === 'rejected' ? [copy.reason] : []));
      for (const reason of refused)
        assert.ok(isAppError(reason) && reason.code === 'QUOTA_EXCEEDED', String(reason));
      // 1024 bytes hold the source and one copy of 400.
      assert.equal(kept.length, 1);
      assert.deepEqual(await usageOf(projectId, creatorId), {
        user: { files: 2, bytes: 800 },
        project: { files: 2, bytes: 800 },
      });
      // A file quota holds as well: one more copy fits under three files, then none.
      const roomy = { ...quotas, userQuotaBytes: null };
      const more = await Promise.allSettled(
        Array.from({ length: 6 }, () =>
          fixture.repos.files.createCopy(
            { ...newFile(projectId, { creatorId }), sourceId: file.id },
            T0,
            roomy,
          ),
        ),
      );
      assert.equal(more.filter((copy) => copy.status === 'fulfilled').length, 1);
      assert.deepEqual((await usageOf(projectId, creatorId)).project, { files: 3, bytes: 1200 });
    });

    it('the migration computes the usage of the rows already there', async () => {
      const projectId = await newProjectId(fixture.repos);
      const creatorId = newId();
      for (const sizeBytes of [3, 5]) {
        const { file } = await fixture.repos.files.create(newFile(projectId, { creatorId }), T0);
        await fixture.repos.files.commitUpload(file.id, upload(sizeBytes));
      }
      const before = await usageOf(projectId, creatorId);
      assert.deepEqual(before.user, { files: 2, bytes: 8 });
      const db = fixture.database.db;
      await storageUsage.down!(db);
      await storageUsage.up(db);
      await addTrashBytes(db as never); // a later migration's column (0034)
      assert.deepEqual(await usageOf(projectId, creatorId), before);
      // The triggers are back too.
      await fixture.repos.files.create(newFile(projectId, { creatorId }), T0);
      assert.deepEqual((await usageOf(projectId, creatorId)).user, { files: 3, bytes: 8 });
    });
  });
}
