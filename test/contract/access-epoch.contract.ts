import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { newProjectId, newUser, type RepositoryFixture } from './repository-fixtures.ts';

/** The number caches of projects and users trust (decisions.md, "access epoch"). */
export function runAccessEpochContract(fixture: RepositoryFixture): void {
  describe('AccessEpochRepository', () => {
    it('moves on every update or delete of a user or project, whoever writes, and only then', async () => {
      const { repos, database } = fixture;
      const epoch = () => repos.accessEpoch.read();
      const projectId = await newProjectId(repos);
      const user = await newUser(repos, projectId);
      const moves = async (change: () => Promise<unknown>) => {
        const before = await epoch();
        await change();
        return (await epoch()) > before;
      };
      assert.equal(await moves(() => repos.users.findById(projectId, user.id)), false);
      assert.equal(await moves(() => newProjectId(repos)), false, 'a new project is never cached as missing');
      assert.equal(await moves(() => repos.users.setEnabled(projectId, user.id, false)), true);
      assert.equal(await moves(() => repos.users.setRole(projectId, user.id, 'admin')), true);
      // Writers that bypass the repositories: another handle, plain SQL.
      const other = await fixture.openAnother();
      assert.equal(
        await moves(() =>
          other.database.db
            .updateTable('projects')
            .set({ app_secret_hash: 'b'.repeat(64) })
            .where('id', '=', projectId)
            .execute(),
        ),
        true,
      );
      assert.equal(
        await moves(() => sql`delete from users where id = ${user.id}`.execute(database.db)),
        true,
      );
      // App credentials: a new one is never cached as missing; a revoke must reach every cache.
      const appId = `app-${projectId}`;
      const credential = { appId, projectId, secretHash: 'c'.repeat(64), createdAt: new Date() };
      assert.equal(await moves(() => repos.appCredentials.create(credential)), false);
      assert.equal(await moves(() => repos.appCredentials.delete(projectId, appId, { keepOne: true })), true);
      // Signing keys: every process holds the list, so a new key moves the epoch too.
      const key = {
        id: `k-${projectId}`,
        purpose: 'link' as const,
        secret: Buffer.alloc(32),
        createdAt: new Date(),
      };
      assert.equal(await moves(() => repos.signingKeys.create(key)), true);
    });
  });
}
