import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { defaultProjectSettings } from '../../src/domain/identity/project-settings.ts';
import { newId } from '../../src/domain/ids.ts';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { createRepositories } from '../../src/persistence/repositories/create-repositories.ts';
import { runAccessEpochContract } from './access-epoch.contract.ts';
import { runFileListContract } from './file-list.contract.ts';
import { runFileRepositoryContract } from './file-repository.contract.ts';
import { runFileViewCacheContract } from './file-view-cache.contract.ts';
import { runGroupCommitContract } from './group-commit.contract.ts';
import { runRateLimitContract } from './rate-limit-repository.contract.ts';
import { runRefreshTokenContract } from './refresh-token-repository.contract.ts';
import { runRenditionRefusalContract } from './rendition-refusal.contract.ts';
import { at, newProjectId, type RepositoryFixture } from './repository-fixtures.ts';
import { runStorageUsageContract } from './storage-usage.contract.ts';
import { runUserFamiliesContract } from './user-families.contract.ts';

/** Every call opens another handle to the same, initially empty database. */
export type OpenDatabase = () => Promise<Database>;

/** The conformance suite every repository implementation runs, once per database dialect. */
export function runRepositoryContract(name: string, open: OpenDatabase): void {
  describe(`Repositories contract: ${name}`, () => {
    const fixture = {} as RepositoryFixture;
    const extra: Database[] = [];
    before(async () => {
      fixture.database = await open();
      await migrateToLatest(fixture.database.db);
      fixture.repos = createRepositories(fixture.database.db);
      fixture.openAnother = async () => {
        const database = await open();
        extra.push(database);
        return { database, repos: createRepositories(database.db) };
      };
    });
    after(async () => {
      for (const database of extra) await database.close();
      await fixture.database.close();
    });

    it('answers check() and migrates again as a no-op', async () => {
      await fixture.database.check();
      await migrateToLatest(fixture.database.db);
    });

    runProjectContract(fixture);
    runUserContract(fixture);
    runSigningKeyContract(fixture);
    runFileRepositoryContract(fixture);
    runFileListContract(fixture);
    runRateLimitContract(fixture);
    runAccessEpochContract(fixture);
    runFileViewCacheContract(fixture);
    runGroupCommitContract(fixture);
    runAppCredentialContract(fixture);
    runStorageUsageContract(fixture);
    runRefreshTokenContract(fixture);
    runUserFamiliesContract(fixture);
    runRenditionRefusalContract(fixture);
  });
}

function runProjectContract(fixture: RepositoryFixture): void {
  describe('ProjectRepository', () => {
    it('creates a project and finds it by id, name and app id', async () => {
      const input = {
        id: newId(),
        name: `p-${newId()}`,
        appId: newId(),
        appSecretHash: 'a'.repeat(64),
        allowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
        adminRole: 'owner',
        settings: { ...defaultProjectSettings, signup: 'closed' as const, userQuotaFiles: 5 },
      };
      const created = await fixture.repos.projects.create(input);
      const { appSecretHash, ...shown } = input;
      assert.deepEqual({ ...created, createdAt: undefined }, { ...shown, createdAt: undefined });
      const [first, ...others] = await fixture.repos.appCredentials.listByProject(input.id);
      assert.deepEqual(
        { ...first, createdAt: undefined },
        { appId: input.appId, projectId: input.id, secretHash: appSecretHash, createdAt: undefined },
      );
      assert.deepEqual(others, []);
      assert.ok(Math.abs(created.createdAt.getTime() - Date.now()) < 60_000);
      assert.deepEqual(await fixture.repos.projects.findById(input.id), created);
      assert.deepEqual(await fixture.repos.projects.findByName(input.name), created);
      assert.deepEqual(await fixture.repos.projects.findByAppId(input.appId), created);
      assert.equal(await fixture.repos.projects.findById(newId()), undefined);
      assert.equal(await fixture.repos.projects.findByName('no-such-project'), undefined);
      assert.equal(await fixture.repos.projects.findByAppId(newId()), undefined);
    });

    it("replaces a project's settings", async () => {
      const id = await newProjectId(fixture.repos);
      const settings = { ...defaultProjectSettings, anonymousSignup: true, allowedContentTypes: ['image/*'] };
      const updated = await fixture.repos.projects.updateSettings(id, settings);
      assert.deepEqual(updated?.settings, settings);
      assert.deepEqual((await fixture.repos.projects.findById(id))?.settings, settings);
      assert.equal(await fixture.repos.projects.updateSettings(newId(), settings), undefined);
    });

    it('refuses a second project with the same name', async () => {
      const name = `p-${newId()}`;
      const base = {
        appSecretHash: 'b'.repeat(64),
        allowedOrigins: [],
        adminRole: 'admin',
        settings: defaultProjectSettings,
      };
      await fixture.repos.projects.create({ ...base, id: newId(), name, appId: newId() });
      await assert.rejects(fixture.repos.projects.create({ ...base, id: newId(), name, appId: newId() }), {
        code: 'VALIDATION_FAILED',
      });
    });

    it('tells whether any project allows an origin, exactly', async () => {
      const host = newId()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, 'x');
      const allowed = `https://a_b-${host}.example.com`;
      await fixture.repos.projects.create({
        id: newId(),
        name: `p-${newId()}`,
        appId: newId(),
        appSecretHash: 'c'.repeat(64),
        allowedOrigins: ['https://other.example.com', allowed],
        adminRole: 'admin',
        settings: defaultProjectSettings,
      });
      assert.equal(await fixture.repos.projects.isOriginAllowedAnywhere(allowed), true);
      for (const origin of [
        `https://aXb-${host}.example.com`, // _ is no wildcard
        `https://A_B-${host}.example.com`, // exact, not case-insensitive
        `https://a_b-${host}.example.co`, // no prefix match
        `${allowed}:8443`,
        `https://${host}.example.com`,
      ]) {
        assert.equal(await fixture.repos.projects.isOriginAllowedAnywhere(origin), false, origin);
      }
    });
  });
}

function runAppCredentialContract(fixture: RepositoryFixture): void {
  describe('AppCredentialRepository', () => {
    it('holds several credentials per project, finds them, and keeps the last one unless told', async () => {
      const { projects, appCredentials } = fixture.repos;
      const projectId = await newProjectId(fixture.repos);
      const [first] = await appCredentials.listByProject(projectId);
      // A minute later: in the same millisecond as the first, the order would fall to the ids.
      const second = {
        appId: newId(),
        projectId,
        secretHash: 'd'.repeat(64),
        createdAt: new Date(Date.now() + 60_000),
      };
      await appCredentials.create(second);
      assert.deepEqual(
        (await appCredentials.listByProject(projectId)).map((item) => item.appId),
        [first!.appId, second.appId],
      );
      assert.deepEqual(await appCredentials.findByAppId(second.appId), second);
      assert.equal((await projects.findByAppId(second.appId))?.id, projectId);
      const otherProject = await newProjectId(fixture.repos);
      assert.equal(await appCredentials.delete(otherProject, second.appId, { keepOne: false }), 'missing');
      assert.equal(await appCredentials.delete(projectId, first!.appId, { keepOne: true }), 'deleted');
      assert.equal(await appCredentials.findByAppId(first!.appId), undefined);
      assert.equal(await projects.findByAppId(first!.appId), undefined);
      assert.equal(await appCredentials.delete(projectId, second.appId, { keepOne: true }), 'last');
      assert.equal(await appCredentials.delete(projectId, second.appId, { keepOne: false }), 'deleted');
      assert.deepEqual(await appCredentials.listByProject(projectId), []);
      assert.equal((await projects.findById(projectId))?.id, projectId, 'the project stays');
    });

    it('of two concurrent revokes of the last two credentials, one keeps its credential', async () => {
      const { appCredentials } = fixture.repos;
      const projectId = await newProjectId(fixture.repos);
      const [first] = await appCredentials.listByProject(projectId);
      const second = { appId: newId(), projectId, secretHash: 'e'.repeat(64), createdAt: new Date() };
      await appCredentials.create(second);
      const outcomes = await Promise.all([
        appCredentials.delete(projectId, first!.appId, { keepOne: true }),
        appCredentials.delete(projectId, second.appId, { keepOne: true }),
      ]);
      assert.deepEqual(outcomes.sort(), ['deleted', 'last']);
      assert.equal((await appCredentials.listByProject(projectId)).length, 1);
    });
  });
}

function runUserContract(fixture: RepositoryFixture): void {
  describe('UserRepository', () => {
    const newUser = (projectId: string, email: string) => ({
      id: newId(),
      projectId,
      email,
      passwordHash: 'hash',
      role: 'user',
      displayName: 'Ann',
      enabled: true,
    });

    it('creates a user and finds it by id and by email, case-insensitively', async () => {
      const projectId = await newProjectId(fixture.repos);
      const input = newUser(projectId, 'Ann.Lee@Example.com');
      const created = await fixture.repos.users.create(input);
      assert.deepEqual(
        { ...created, createdAt: 0, updatedAt: 0 },
        { ...input, createdAt: 0, updatedAt: 0, version: 0, emailVerifiedAt: null },
      );
      assert.equal(created.createdAt.getTime(), created.updatedAt.getTime());
      assert.deepEqual(await fixture.repos.users.findById(projectId, input.id), created);
      assert.deepEqual(await fixture.repos.users.findByEmail(projectId, ' ann.lee@EXAMPLE.COM '), created);
      assert.equal(
        await fixture.repos.users.findById(await newProjectId(fixture.repos), input.id),
        undefined,
      );
      assert.equal(await fixture.repos.users.findByEmail(projectId, 'someone@example.com'), undefined);
    });

    it('throws EMAIL_TAKEN for the same email in any case, within one project only', async () => {
      const projectId = await newProjectId(fixture.repos);
      await fixture.repos.users.create(newUser(projectId, 'bob@example.com'));
      await assert.rejects(fixture.repos.users.create(newUser(projectId, ' BOB@example.com')), {
        code: 'EMAIL_TAKEN',
      });
      const elsewhere = await newProjectId(fixture.repos);
      await fixture.repos.users.create(newUser(elsewhere, 'bob@example.com'));
    });

    it('lets exactly one of ten concurrent signups with one email win', async () => {
      const projectId = await newProjectId(fixture.repos);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          fixture.repos.users.create(newUser(projectId, i % 2 ? 'race@example.com' : 'RACE@example.com')),
        ),
      );
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
      for (const result of results) {
        if (result.status === 'rejected') assert.equal(result.reason.code, 'EMAIL_TAKEN');
      }
    });

    it('sets role and enabled, bumping version and updatedAt', async () => {
      const projectId = await newProjectId(fixture.repos);
      const user = await fixture.repos.users.create(newUser(projectId, `${newId()}@example.com`));
      const promoted = await fixture.repos.users.setRole(projectId, user.id, 'admin');
      assert.equal(promoted?.role, 'admin');
      assert.equal(promoted?.version, 1);
      assert.ok(promoted.updatedAt.getTime() >= user.updatedAt.getTime());
      assert.deepEqual(promoted.createdAt, user.createdAt);
      const disabled = await fixture.repos.users.setEnabled(projectId, user.id, false);
      assert.equal(disabled?.enabled, false);
      assert.equal(disabled?.role, 'admin');
      assert.equal(disabled?.version, 2);
      assert.deepEqual(await fixture.repos.users.findById(projectId, user.id), disabled);
      assert.equal((await fixture.repos.users.setEnabled(projectId, user.id, true))?.enabled, true);
      assert.equal(await fixture.repos.users.setRole(projectId, newId(), 'admin'), undefined);
      const otherProject = await newProjectId(fixture.repos);
      assert.equal(await fixture.repos.users.setEnabled(otherProject, user.id, false), undefined);
    });

    it("lists a project's users in pages, in email order (case-insensitive), and only its own", async () => {
      const projectId = await newProjectId(fixture.repos);
      for (const email of [
        'd@example.com',
        'B@example.com',
        'a@example.com',
        'c@example.com',
        'E@example.com',
      ])
        await fixture.repos.users.create(newUser(projectId, email));
      await fixture.repos.users.create(newUser(await newProjectId(fixture.repos), 'aa@example.com'));
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await fixture.repos.users.list(projectId, { after, limit: 2 });
        assert.ok(page.users.length <= 2);
        seen.push(...page.users.map((user) => user.email));
        after = page.next;
        pages += 1;
      } while (after !== undefined);
      assert.deepEqual(seen, [
        'a@example.com',
        'B@example.com',
        'c@example.com',
        'd@example.com',
        'E@example.com',
      ]);
      assert.equal(pages, 3);
      assert.deepEqual(await fixture.repos.users.list(await newProjectId(fixture.repos), { limit: 10 }), {
        users: [],
        next: undefined,
      });
    });

    it('deletes a user of its own project only', async () => {
      const projectId = await newProjectId(fixture.repos);
      const user = await fixture.repos.users.create(newUser(projectId, 'gone@example.com'));
      assert.equal(await fixture.repos.users.delete(await newProjectId(fixture.repos), user.id), false);
      assert.equal(await fixture.repos.users.delete(projectId, user.id), true);
      assert.equal(await fixture.repos.users.findById(projectId, user.id), undefined);
      assert.equal(await fixture.repos.users.delete(projectId, user.id), false);
      // The email is free again.
      await fixture.repos.users.create(newUser(projectId, 'gone@example.com'));
    });
  });
}

function runSigningKeyContract(fixture: RepositoryFixture): void {
  describe('SigningKeyRepository', () => {
    it('lists the keys of a purpose newest first, secrets intact', async () => {
      const purpose = 'link' as const;
      const existing = await fixture.repos.signingKeys.list(purpose);
      const keys = [0, 2, 1].map((offset) => ({
        id: newId(),
        purpose,
        secret: randomBytes(32),
        createdAt: at(offset * 1000),
      }));
      for (const key of keys) await fixture.repos.signingKeys.create(key);
      await fixture.repos.signingKeys.create({
        id: newId(),
        purpose: 'token',
        secret: randomBytes(32),
        createdAt: at(5000),
      });
      const listed = (await fixture.repos.signingKeys.list(purpose)).filter(
        (key) => !existing.some((old) => old.id === key.id),
      );
      assert.deepEqual(listed, [keys[1], keys[2], keys[0]]);
      await assert.rejects(fixture.repos.signingKeys.create(keys[0]!));
    });
  });
}
