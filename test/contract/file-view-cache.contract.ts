import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { newFile, newProjectId, type RepositoryFixture, T0 } from './repository-fixtures.ts';

/**
 * The file repository keeps the files it read and checks each by its row stamp
 * (persistence/repositories/files/file-view-cache.ts): whoever changes a file or its ACL, by
 * whatever path, the next read sees it.
 */
export function runFileViewCacheContract(fixture: RepositoryFixture): void {
  describe('FileRepository.findById, kept per file', () => {
    it('answers the kept file until anyone changes its row or ACL, then the change, at once', async () => {
      const { repos } = fixture;
      const projectId = await newProjectId(repos);
      const { file } = await repos.files.create(newFile(projectId), T0);
      const first = await repos.files.findById(file.id);
      assert.equal(await repos.files.findById(file.id), first, 'the second read answers the kept record');
      assert.throws(() => {
        (first as { filePath: string }).filePath = 'changed.txt';
      }, TypeError);
      // Another handle (another worker, node or the CLI) writing plain SQL, not the repository.
      const other = (await fixture.openAnother()).database.db;
      await sql`insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
        values (${file.id}, 'user', 'reader-1', 7, ${projectId}, ${T0.getTime()})`.execute(other);
      assert.deepEqual(
        (await repos.files.findById(file.id))?.acl.map((entry) => entry.identifier),
        [file.creatorId, 'reader-1'],
      );
      await sql`delete from file_acl where file_id = ${file.id} and identifier = 'reader-1'`.execute(other);
      assert.deepEqual(
        (await repos.files.findById(file.id))?.acl.map((entry) => entry.identifier),
        [file.creatorId],
      );
      await sql`update files set links_generation = links_generation + 1 where id = ${file.id}`.execute(
        other,
      );
      assert.equal((await repos.files.findById(file.id))?.linksGeneration, file.linksGeneration + 1);
      await sql`delete from files where id = ${file.id}`.execute(other);
      assert.equal(await repos.files.findById(file.id), undefined);
    });

    // The creator's own entry, inserted with its file, moves no stamp (migrations/
    // upload-write-path.ts): nobody can have read the row before it. Every later ACL change does.
    it("the creator's entry inserted with its file leaves the stamp; the same entry added later moves it", async () => {
      const { repos } = fixture;
      const projectId = await newProjectId(repos);
      const { file } = await repos.files.create(newFile(projectId), T0);
      const other = (await fixture.openAnother()).database.db;
      const stamp = async () =>
        Number(
          (
            await sql<{ row_stamp: unknown }>`select row_stamp from files where id = ${file.id}`.execute(
              other,
            )
          ).rows[0]?.row_stamp,
        );
      assert.equal(await stamp(), 0, 'the upload request wrote its row once');
      assert.deepEqual(
        (await repos.files.findById(file.id))?.acl.map((entry) => entry.identifier),
        [file.creatorId],
      );
      await sql`delete from file_acl where file_id = ${file.id} and identifier = ${file.creatorId}`.execute(
        other,
      );
      assert.deepEqual((await repos.files.findById(file.id))?.acl, []);
      await sql`insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
        values (${file.id}, 'user', ${file.creatorId}, 0, ${projectId}, ${T0.getTime()})`.execute(other);
      assert.deepEqual(
        (await repos.files.findById(file.id))?.acl.map((entry) => entry.identifier),
        [file.creatorId],
        'the entry added back is seen at once',
      );
    });
  });
}
