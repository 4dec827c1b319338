import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { newId } from '../../src/domain/ids.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { groupCommitFor } from '../../src/persistence/repositories/group-commit.ts';
import { newFile, newProjectId, type RepositoryFixture, T0 } from './repository-fixtures.ts';

const noQuotas: QuotaLimits = {
  userQuotaBytes: null,
  userQuotaFiles: null,
  projectQuotaBytes: null,
  projectQuotaFiles: null,
};

const codeOf = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'fulfilled'
    ? 'created'
    : isAppError(outcome.reason)
      ? outcome.reason.code
      : String(outcome.reason);

/**
 * Upload requests that arrive together share one commit on SQLite (group-commit.ts): each is
 * still its own unit, kept whole or refused alone, and a quota is checked against the ones
 * committed before it in the same batch.
 */
export function runGroupCommitContract(fixture: RepositoryFixture): void {
  describe('upload requests committed together', () => {
    it('keeps every request of a burst but the one whose path was taken, which fails alone', async () => {
      const { repos } = fixture;
      const projectId = await newProjectId(repos);
      const creatorId = newId();
      const files = Array.from({ length: 24 }, () => newFile(projectId, { creatorId }));
      const taken = { ...newFile(projectId, { creatorId }), filePath: files[7]!.filePath };
      const sent = [...files.slice(0, 12), taken, ...files.slice(12)];
      const codes = (await Promise.allSettled(sent.map((file) => repos.files.create(file, T0)))).map(codeOf);
      // One of the two at the same path wins (on SQLite the first, in order; on PostgreSQL
      // whichever commits first), the other fails alone; every other request is kept.
      const refused = sent.filter((_, index) => codes[index] === 'FILE_EXISTS');
      assert.equal(refused.length, 1, codes.join());
      assert.ok(refused[0] === taken || refused[0] === files[7], codes.join());
      assert.equal(codes.filter((code) => code === 'created').length, files.length, codes.join());
      for (const file of sent.filter((candidate) => candidate !== refused[0])) {
        const found = await repos.files.findById(file.id);
        assert.equal(found?.filePath, file.filePath);
        assert.deepEqual(found?.acl, [{ scope: 'user', identifier: creatorId }]);
      }
      assert.equal(await repos.files.findById(refused[0]!.id), undefined);
      const usage = await repos.storageUsage.find({ projectId, userId: creatorId });
      assert.equal(usage.user.files, files.length, 'the refused request left no usage behind');
    });

    it('lets a burst past a file quota commit only what the quota has room for', async () => {
      const { repos } = fixture;
      const projectId = await newProjectId(repos);
      const creatorId = newId();
      const quotas = { ...noQuotas, userQuotaFiles: 5 };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 16 }, () => repos.files.create(newFile(projectId, { creatorId }), T0, quotas)),
      );
      const codes = outcomes.map(codeOf);
      assert.equal(codes.filter((code) => code === 'created').length, 5, codes.join());
      assert.equal(codes.filter((code) => code === 'QUOTA_EXCEEDED').length, 11, codes.join());
      assert.equal((await repos.storageUsage.find({ projectId, userId: creatorId })).user.files, 5);
    });

    it('undoes a failing piece of work only, even after it wrote, and answers each its own result', async () => {
      // On SQLite the three share one transaction, in this order; on PostgreSQL each has its own.
      const { db } = fixture.database;
      const transact = groupCommitFor(db);
      const projectId = await newProjectId(fixture.repos);
      const rename = (name: string) => (trx: typeof db) =>
        trx.updateTable('projects').set({ name }).where('id', '=', projectId).execute();
      const outcomes = await Promise.allSettled([
        transact(async (trx) => {
          await rename('kept')(trx);
          return 1;
        }),
        transact(async (trx) => {
          await rename('undone')(trx);
          throw new Error('refused after writing');
        }),
        transact(async () => 3),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) =>
          outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message,
        ),
        [1, 'refused after writing', 3],
      );
      const name = await db
        .selectFrom('projects')
        .select('name')
        .where('id', '=', projectId)
        .executeTakeFirst();
      assert.equal(name?.name, 'kept', 'the failing piece wrote after the first; its write is undone');
    });
  });
}
