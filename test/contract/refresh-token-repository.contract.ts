import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/domain/ids.ts';
import { at, newProjectId, type RepositoryFixture } from './repository-fixtures.ts';

/** RefreshTokenRepository: families of single-use tokens (part of the repository contract). */
export function runRefreshTokenContract(fixture: RepositoryFixture): void {
  describe('RefreshTokenRepository', () => {
    const repo = () => fixture.repos.refreshTokens;
    const hour = 3_600_000;
    const grace = 10_000;
    const token = (expiresInMs = hour, from = 0) => ({
      tokenHash: `h-${newId()}`,
      expiresAt: at(from + expiresInMs),
    });
    const startFamily = async (projectId: string, userId = newId()) => {
      const family = { id: newId(), projectId, userId };
      const first = token();
      await repo().createFamily(family, first, at(0));
      return { family, first };
    };

    it('creates a family and finds its token by hash, with who it speaks for', async () => {
      const projectId = await newProjectId(fixture.repos);
      const { family, first } = await startFamily(projectId);
      assert.deepEqual(await repo().findByHash(first.tokenHash), {
        tokenHash: first.tokenHash,
        familyId: family.id,
        projectId,
        userId: family.userId,
        expiresAt: first.expiresAt,
        retiredAt: null,
      });
      assert.equal(await repo().findByHash('h-unknown'), undefined);
    });

    it('rotates a live token once; reuse within the grace rotates again, after it is reported', async () => {
      const { family, first } = await startFamily(await newProjectId(fixture.repos));
      const second = token(hour, 1000);
      const rotated = await repo().rotate(first.tokenHash, second, at(1000), grace);
      assert.equal(rotated.outcome, 'rotated');
      assert.equal((await repo().findByHash(first.tokenHash))?.retiredAt?.getTime(), at(1000).getTime());
      assert.equal((await repo().findByHash(second.tokenHash))?.familyId, family.id);
      const retry = token(hour, 1000 + grace);
      assert.equal((await repo().rotate(first.tokenHash, retry, at(1000 + grace), grace)).outcome, 'rotated');
      const late = token(hour, 1001 + grace);
      const reused = await repo().rotate(first.tokenHash, late, at(1001 + grace), grace);
      assert.equal(reused.outcome, 'reused');
      assert.equal(reused.outcome === 'reused' && reused.token.familyId, family.id);
      assert.equal(await repo().findByHash(late.tokenHash), undefined, 'a reuse writes nothing');
    });

    it('answers invalid for an unknown, an expired or a revoked token, writing nothing', async () => {
      const projectId = await newProjectId(fixture.repos);
      const next = token();
      assert.deepEqual(await repo().rotate('h-unknown', next, at(0), grace), { outcome: 'invalid' });
      const { family, first } = await startFamily(projectId);
      assert.deepEqual(await repo().rotate(first.tokenHash, next, at(hour), grace), { outcome: 'invalid' });
      assert.equal(await repo().deleteFamily(family.id), true);
      assert.equal(await repo().deleteFamily(family.id), false);
      assert.deepEqual(await repo().rotate(first.tokenHash, next, at(0), grace), { outcome: 'invalid' });
      assert.equal(await repo().findByHash(first.tokenHash), undefined);
      assert.equal(await repo().findByHash(next.tokenHash), undefined);
    });

    it('lets one of concurrent rotations from two handles retire the token', async () => {
      const other = await fixture.openAnother();
      const { first } = await startFamily(await newProjectId(fixture.repos));
      const nexts = Array.from({ length: 6 }, () => token());
      // All at the same moment, with no grace: exactly one finds the token live.
      const outcomes = await Promise.all(
        nexts.map((next, i) =>
          (i % 2 ? other.repos : fixture.repos).refreshTokens.rotate(first.tokenHash, next, at(0), -1),
        ),
      );
      assert.equal(outcomes.filter((result) => result.outcome === 'rotated').length, 1);
      assert.equal(outcomes.filter((result) => result.outcome === 'reused').length, 5);
    });

    it('revokes every family of a user but one, and no other user’s', async () => {
      const projectId = await newProjectId(fixture.repos);
      const userId = newId();
      const [a, b, c] = [
        await startFamily(projectId, userId),
        await startFamily(projectId, userId),
        await startFamily(projectId, userId),
      ];
      const stranger = await startFamily(projectId);
      assert.equal(await repo().deleteUserFamilies(projectId, userId, b.family.id), 2);
      assert.equal(await repo().findByHash(a.first.tokenHash), undefined);
      assert.equal(await repo().findByHash(c.first.tokenHash), undefined);
      assert.ok(await repo().findByHash(b.first.tokenHash));
      assert.ok(await repo().findByHash(stranger.first.tokenHash));
      assert.equal(await repo().deleteUserFamilies(projectId, userId), 1);
      assert.equal(await repo().findByHash(b.first.tokenHash), undefined);
    });

    it('deletes at most `limit` expired families, oldest first; a rotation extends its family', async () => {
      const projectId = await newProjectId(fixture.repos);
      // Far in the future of every other test's families, so that only these count.
      const base = 1000 * hour;
      const families = [];
      for (let i = 0; i < 3; i++) {
        const family = { id: newId(), projectId, userId: newId() };
        const first = token(base + i * 1000);
        await repo().createFamily(family, first, at(0));
        families.push({ family, first });
      }
      const extended = token(hour, base);
      assert.equal(
        (await repo().rotate(families[0]!.first.tokenHash, extended, at(base - 1), grace)).outcome,
        'rotated',
      );
      let deleted = 0;
      for (let round = 0; round < 100 && (await repo().findByHash(families[2]!.first.tokenHash)); round++) {
        const count = await repo().deleteExpired(at(base + 5000), 2);
        assert.ok(count <= 2);
        deleted += count;
      }
      assert.equal(await repo().findByHash(families[1]!.first.tokenHash), undefined);
      assert.equal(await repo().findByHash(families[2]!.first.tokenHash), undefined);
      assert.ok(await repo().findByHash(extended.tokenHash), 'extended past the sweep');
      assert.ok(deleted >= 2);
    });
  });
}
