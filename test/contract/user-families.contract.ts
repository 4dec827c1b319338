import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemActor } from '../../src/domain/events/event.ts';
import { toUserEvent } from '../../src/domain/events/user-events.ts';
import { newId } from '../../src/domain/ids.ts';
import { at, newProjectId, type RepositoryFixture } from './repository-fixtures.ts';

/**
 * RefreshTokenRepository as a user's session list (issue 41, item 4): what a family shows, and
 * ending one or all of a user's, each with its event (part of the repository contract).
 */
export function runUserFamiliesContract(fixture: RepositoryFixture): void {
  describe('RefreshTokenRepository: a user’s sessions', () => {
    const repo = () => fixture.repos.refreshTokens;
    const hour = 3_600_000;
    const start = async (
      owner: { projectId: string; userId: string },
      createdAtMs: number,
      expiresInMs = hour,
    ) => {
      const id = newId();
      const tokenHash = `h-${newId()}`;
      const details = { ip: '203.0.113.7', userAgent: `Agent/${createdAtMs}`, method: 'oauth:corp' };
      await repo().createFamily(
        { id, ...owner, details },
        { tokenHash, expiresAt: at(createdAtMs + expiresInMs) },
        at(createdAtMs),
      );
      return { id, tokenHash };
    };
    const ended = (owner: { projectId: string; userId: string }, sessionId: string) =>
      toUserEvent(
        'user.session_ended',
        systemActor,
        { id: owner.userId, projectId: owner.projectId },
        at(0),
        {
          sessionId,
        },
      );
    const eventsOf = async (projectId: string) =>
      (await fixture.repos.events.search({ projectId, limit: 1000 }))
        .filter((event) => event.type === 'user.session_ended')
        .map((event) => event.data.sessionId);

    it('lists a user’s live families newest first, with what they began with; a rotation is their last use', async () => {
      const owner = { projectId: await newProjectId(fixture.repos), userId: newId() };
      const older = await start(owner, 0);
      const newer = await start(owner, 1000);
      await start(owner, -2 * hour); // expired by now
      await start({ ...owner, userId: newId() }, 2000); // another user's
      const rotated = await repo().rotate(
        older.tokenHash,
        { tokenHash: `h-${newId()}`, expiresAt: at(5 * hour) },
        at(3000),
        0,
      );
      assert.equal(rotated.outcome, 'rotated');
      assert.deepEqual(await repo().listUserFamilies(owner.projectId, owner.userId, at(4000), 10), [
        {
          id: newer.id,
          createdAt: at(1000).getTime(),
          lastUsedAt: at(1000).getTime(),
          ip: '203.0.113.7',
          userAgent: 'Agent/1000',
          method: 'oauth:corp',
        },
        {
          id: older.id,
          createdAt: at(0).getTime(),
          lastUsedAt: at(3000).getTime(),
          ip: '203.0.113.7',
          userAgent: 'Agent/0',
          method: 'oauth:corp',
        },
      ]);
      assert.deepEqual(
        (await repo().listUserFamilies(owner.projectId, owner.userId, at(4000), 1)).map(({ id }) => id),
        [newer.id],
      );
    });

    it('ends one live family of its owner only, with its event', async () => {
      const owner = { projectId: await newProjectId(fixture.repos), userId: newId() };
      const mine = await start(owner, 0);
      const expired = await start(owner, -2 * hour);
      const other = { ...owner, userId: newId() };
      const theirs = await start(other, 0);
      assert.equal(await repo().deleteUserFamily(owner, theirs.id, at(1000), ended(owner, theirs.id)), false);
      assert.equal(
        await repo().deleteUserFamily(owner, expired.id, at(1000), ended(owner, expired.id)),
        false,
      );
      assert.ok(await repo().findByHash(theirs.tokenHash));
      assert.equal(await repo().deleteUserFamily(owner, mine.id, at(1000), ended(owner, mine.id)), true);
      assert.equal(await repo().findByHash(mine.tokenHash), undefined);
      assert.deepEqual(await eventsOf(owner.projectId), [mine.id]);
    });

    it('ends every family of a user but one, in batches, an event for each live one', async () => {
      const owner = { projectId: await newProjectId(fixture.repos), userId: newId() };
      const families = [];
      // Past one batch (500 a transaction).
      for (let i = 0; i < 502; i++) families.push(await start(owner, i));
      const expired = await start(owner, -2 * hour);
      const other = await start({ ...owner, userId: newId() }, 0);
      const kept = families[7]!;
      const count = await repo().deleteUserFamiliesNoting(owner, {
        exceptFamilyId: kept.id,
        now: at(1000),
        toEvent: (family) => ended(owner, family.id),
      });
      assert.equal(count, 501);
      assert.deepEqual(
        (await repo().listUserFamilies(owner.projectId, owner.userId, at(1000), 10)).map(({ id }) => id),
        [kept.id],
      );
      assert.equal(await repo().findByHash(expired.tokenHash), undefined, 'an expired one goes too');
      assert.ok(await repo().findByHash(other.tokenHash));
      const events = await eventsOf(owner.projectId);
      assert.equal(events.length, 501);
      assert.equal(events.includes(kept.id) || events.includes(expired.id), false);
    });
  });
}
