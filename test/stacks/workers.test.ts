import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

/** `coffer serve --workers 2` (node:cluster) on the current stack: SQLite, or PostgreSQL. */
describe(`serve --workers 2 on the ${currentStackName()} stack`, () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess({ args: ['--workers', '2'] });
  });
  after(() => coffer?.stop());

  it('concurrent ACL appends across the workers lose nothing', async () => {
    const owner = await coffer.client.signup();
    const record = await coffer.client.uploadFile(owner.token, 'workers.txt', 'two workers');
    const roles = Array.from({ length: 30 }, (_, i) => `role-${i}`);
    // New connections each time, so the kernel spreads them over both workers.
    const shares = await Promise.all(
      roles.map((role) =>
        coffer.client.call('POST', `/api/v1/file/${record._id}/acl/role/${role}`, {
          token: owner.token,
          headers: { connection: 'close' },
        }),
      ),
    );
    assert.deepEqual(new Set(shares.map((r) => r.status)), new Set([200]));
    const after = await coffer.client.call('GET', `/api/v1/file/${record._id}`, { token: owner.token });
    assert.equal(after.body.__v, (record.__v as number) + roles.length);
    assert.deepEqual(
      new Set(
        after.body.acl
          .filter((e: { scope: string }) => e.scope === 'role')
          .map((e: { identifier: string }) => e.identifier),
      ),
      new Set(roles),
    );
    assert.match(coffer.output(), /"workers":2/);
  });
});
