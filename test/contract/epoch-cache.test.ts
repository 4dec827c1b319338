import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccessEpochWatch } from '../../src/domain/identity/access-epoch-watch.ts';
import { CachedUserRepository } from '../../src/domain/identity/cached-user-repository.ts';
import { EpochCache } from '../../src/domain/identity/epoch-cache.ts';
import type { Database } from '../../src/persistence/database.ts';
import { migrateToLatest } from '../../src/persistence/migrations/migrate-to-latest.ts';
import { openDatabase } from '../../src/persistence/open-database.ts';
import {
  createRepositories,
  type Repositories,
} from '../../src/persistence/repositories/create-repositories.ts';
import { newProjectId, newUser as newUserOf } from './repository-fixtures.ts';

/** The caches of barriers 2–3 over a real database (SQLite in memory). */
describe('EpochCache and CachedUserRepository', () => {
  let database: Database;
  let repos: Repositories;
  let projectId: string;
  const newUser = () => newUserOf(repos, projectId);
  before(async () => {
    database = await openDatabase({ databaseUrl: 'sqlite::memory:' });
    await migrateToLatest(database.db);
    repos = createRepositories(database.db);
    projectId = await newProjectId(repos);
  });
  after(() => database.close());

  it('serves what it read while the epoch stays, and reads again once another writer moved it', async () => {
    const user = await newUser();
    // Interval 0: every lookup reads the epoch, as a lookup does once the interval has passed.
    const cached = new CachedUserRepository(repos.users, new AccessEpochWatch(repos.accessEpoch, 0));
    const first = await cached.findById(projectId, user.id);
    assert.equal(await cached.findById(projectId, user.id), first, 'the second lookup is the cached object');
    // Not through `cached`: as another process or node would (the trigger moves the epoch).
    await repos.users.setEnabled(projectId, user.id, false);
    assert.equal((await cached.findById(projectId, user.id))?.enabled, false);
  });

  it('trusts a reading for its interval, and drops everything at once on a change made through it', async () => {
    const user = await newUser();
    const cached = new CachedUserRepository(repos.users, new AccessEpochWatch(repos.accessEpoch, 3_600_000));
    await cached.findById(projectId, user.id);
    await repos.users.setRole(projectId, user.id, 'admin');
    assert.equal((await cached.findById(projectId, user.id))?.role, 'user', 'within the interval: cached');
    await cached.setEnabled(projectId, user.id, false);
    const fresh = await cached.findById(projectId, user.id);
    assert.deepEqual([fresh?.role, fresh?.enabled], ['admin', false]);
  });

  it('never serves a value read while the generation moved (it may predate the change)', async () => {
    const watch = new AccessEpochWatch(repos.accessEpoch, 3_600_000);
    const cache = new EpochCache<string>(watch);
    let loads = 0;
    const racing = () => {
      loads += 1;
      watch.invalidate(); // a change committed while this read was in flight
      return Promise.resolve('stale');
    };
    assert.equal(await cache.get('k', racing), 'stale');
    assert.equal(await cache.get('k', () => Promise.resolve('fresh')), 'fresh');
    assert.equal(await cache.get('k', () => Promise.resolve('never read')), 'fresh');
    assert.equal(loads, 1);
  });
});
