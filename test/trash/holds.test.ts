import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../src/errors/app-error.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { currentStackName } from '../support/test-stack.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/**
 * Issue 38, item 4: a project admin's legal hold. While held, a file moves for no one, nor does
 * a folder holding it (409 FILE_ON_HOLD, nothing changed); copies are allowed. Deletes of held
 * files are test/trash/delete-held.test.ts's.
 */
describe(`legal holds (${currentStackName()} stack)`, () => {
  let server: TestServer;
  let serviceKey: string;
  let admin: Account;
  before(async () => {
    server = await startTestServer();
    serviceKey = await server.createServiceKey();
    admin = await server.client.signup();
    await server.services.repositories.users.setRole(server.credentials.projectId, admin.userId, 'admin');
  });
  after(() => server?.stop());

  const hold = (id: string, as: { token?: string; serviceKey?: string }, reason: unknown = 'litigation 42') =>
    server.client.call('POST', `/api/v1/file/${id}/hold`, { ...as, body: { reason } });
  const release = (id: string, as: { token?: string; serviceKey?: string }) =>
    server.client.call('DELETE', `/api/v1/file/${id}/hold`, as);
  const getFile = (token: string, id: string) => server.client.call('GET', `/api/v1/file/${id}`, { token });
  const pathsOf = async (account: Account) => {
    const listed = await server.client.call('GET', '/api/v1/file?pageSize=100', { token: account.token });
    return (listed.body.docs as { filePath: string }[]).map((doc) => doc.filePath).sort();
  };
  /** The events of one file, oldest first (the audit log, read with a service key). */
  const eventsOf = async (fileId: string, type: string) => {
    const answer = await server.client.call('GET', `/api/v1/audit?type=${type}&pageSize=100`, { serviceKey });
    assert.equal(answer.status, 200, answer.text);
    return (answer.body.events as { data: Record<string, unknown>; actor: Record<string, unknown> }[])
      .filter((event) => event.data.fileId === fileId)
      .reverse();
  };
  const assertOnHold = (answer: { status: number; body: { code?: string }; text: string }) => {
    assert.equal(answer.status, 409, answer.text);
    assert.equal(answer.body.code, 'FILE_ON_HOLD');
  };

  it('an admin holds and releases a file: the record shows the hold, each change is an event', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'contracts/a.pdf', 'signed');
    const held = await hold(file._id, { token: admin.token });
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.hold.reason, 'litigation 42');
    assert.equal(held.body.hold.heldBy, admin.userId);
    assert.match(held.body.hold.heldAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(held.body.__v, (file.__v as number) + 1);
    // The owner sees it too, with the same record.
    const seen = await getFile(owner.token, file._id);
    assert.deepEqual(seen.body.hold, held.body.hold);

    // Holding again replaces the reason; a service key is a project admin.
    const again = await hold(file._id, { serviceKey }, 'audit 7');
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.hold.reason, 'audit 7');
    assert.match(again.body.hold.heldBy, /^service-key:/);

    const released = await release(file._id, { serviceKey });
    assert.equal(released.status, 204, released.text);
    const after = await getFile(owner.token, file._id);
    assert.equal(after.body.hold, undefined);
    assert.equal(after.body.__v, again.body.__v + 1);
    // Releasing a file not held changes nothing and writes nothing.
    assert.equal((await release(file._id, { token: admin.token })).status, 204);
    assert.equal((await getFile(owner.token, file._id)).body.__v, after.body.__v);

    const heldEvents = await eventsOf(file._id, 'file.held');
    assert.deepEqual(
      heldEvents.map((event) => [event.data.reason, event.actor.kind]),
      [
        ['litigation 42', 'user'],
        ['audit 7', 'service-key'],
      ],
    );
    const releasedEvents = await eventsOf(file._id, 'file.released');
    assert.deepEqual(
      releasedEvents.map((event) => event.data.reason),
      ['audit 7'],
    );
  });

  it('only project admins hold or release: 403 for the creator and a reader, 404 for no file, 400 for a bad reason', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'a.txt', 'a');
    await server.client.call('POST', `/api/v1/file/${file._id}/acl/user/${reader.userId}`, {
      token: owner.token,
    });
    for (const account of [owner, reader]) {
      for (const answer of [await hold(file._id, account), await release(file._id, account)]) {
        assert.equal(answer.status, 403, answer.text);
        assert.equal(answer.body.code, 'ACCESS_DENIED');
      }
    }
    assert.equal((await hold(file._id, { serviceKey })).status, 200);
    const denied = await release(file._id, { token: owner.token });
    assert.equal(denied.status, 403, denied.text);
    assert.ok((await getFile(owner.token, file._id)).body.hold, 'the creator cannot lift it');

    const missing = await hold('AAAAAAAAAAAAAAAAAAAAAA', { serviceKey });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.body.code, 'FILE_NOT_FOUND');
    for (const reason of ['', 'x'.repeat(501), null]) {
      const bad = await hold(file._id, { serviceKey }, reason);
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.code, 'VALIDATION_FAILED');
    }
    assert.equal((await hold(file._id, { serviceKey }, 'y'.repeat(500))).status, 200);

    // An unverified file has no content to keep (it is swept when its upload link expires).
    const requested = await server.client.call('POST', '/api/v1/file', {
      token: owner.token,
      body: { filePath: 'pending.txt' },
    });
    const unverified = await hold(requested.body.fileId, { serviceKey });
    assert.equal(unverified.status, 409, unverified.text);
    assert.equal(unverified.body.code, 'FILE_NOT_VERIFIED');
  });

  it('a held file refuses a move by anyone (409 FILE_ON_HOLD, nothing changes); copies are allowed', async () => {
    const owner = await server.client.signup();
    const file = await server.client.uploadFile(owner.token, 'evidence/photo.jpg', 'pixels');
    const held = (await hold(file._id, { serviceKey })).body;
    for (const as of [{ token: owner.token }, { token: admin.token }, { serviceKey }]) {
      const moved = await server.client.call('POST', `/api/v1/file/${file._id}/move`, {
        ...as,
        body: { filePath: 'elsewhere/photo.jpg' },
      });
      assertOnHold(moved);
      assert.match(moved.body.message, /evidence\/photo\.jpg/);
    }
    const record = (await getFile(owner.token, file._id)).body;
    assert.equal(record.filePath, 'evidence/photo.jpg');
    assert.equal(record.__v, held.__v);
    assert.deepEqual(await eventsOf(file._id, 'file.updated'), []);

    const copy = await server.client.call('POST', `/api/v1/file/${file._id}/copy`, {
      token: owner.token,
      body: { filePath: 'copies/photo.jpg' },
    });
    assert.equal(copy.status, 200, copy.text);
    assert.equal(copy.body.hold, undefined, 'a copy is a new file, not held');

    // The write judges the hold itself, under the row's lock: called past the service's check.
    await assert.rejects(
      server.services.repositories.files.move(file._id, 'elsewhere/photo.jpg', new Date()),
      (error) => isAppError(error) && error.code === 'FILE_ON_HOLD',
    );
    assert.equal((await getFile(owner.token, file._id)).body.filePath, 'evidence/photo.jpg');

    assert.equal((await release(file._id, { serviceKey })).status, 204);
    const moved = await server.client.call('POST', `/api/v1/file/${file._id}/move`, {
      token: owner.token,
      body: { filePath: 'elsewhere/photo.jpg' },
    });
    assert.equal(moved.status, 200, moved.text);
  });

  it('a folder move holding a held file is refused whole (409 FILE_ON_HOLD naming it); nothing moves', async () => {
    const owner = await server.client.signup();
    await server.client.uploadFile(owner.token, 'case/a.txt', 'a');
    const held = await server.client.uploadFile(owner.token, 'case/deep/b.txt', 'b');
    await server.client.uploadFile(owner.token, 'case/deep/c.txt', 'c');
    await server.client.uploadFile(owner.token, 'other/d.txt', 'd');
    await hold(held._id, { token: admin.token });
    const before = await pathsOf(owner);
    const versionBefore = (await getFile(owner.token, held._id)).body.__v;

    for (const [as, body] of [
      [{ token: owner.token }, { from: 'case/', to: 'archive/case/' }],
      [{ serviceKey }, { owner: owner.userId, from: 'case/deep/', to: 'case/' }],
      [{ token: admin.token }, { owner: owner.userId, from: 'case/', to: 'z/' }],
    ] as const) {
      const answer = await server.client.call('POST', '/api/v1/folders/move', { ...as, body });
      assertOnHold(answer);
      assert.match(answer.body.message, /case\/deep\/b\.txt/);
    }
    assert.deepEqual(await pathsOf(owner), before);
    assert.equal((await getFile(owner.token, held._id)).body.__v, versionBefore);
    const moves = await server.client.call('GET', '/api/v1/audit?type=folder.moved&pageSize=100', {
      serviceKey,
    });
    assert.ok(
      !moves.body.events.some((event: { data: { owner?: string } }) => event.data.owner === owner.userId),
    );

    // The repository refuses it too, in the transaction that would move (past the service).
    const result = await server.services.repositories.folderChanges.moveFolder({
      projectId: server.credentials.projectId,
      ownerId: owner.userId,
      path: 'case/',
      to: 'elsewhere/',
      maxFiles: 100,
      now: new Date(),
      eventsOf: () => [],
    });
    assert.deepEqual(result, { held: 'case/deep/b.txt' });
    assert.deepEqual(await pathsOf(owner), before);

    // A folder beside it moves; once released, the held one's folder moves too.
    const beside = await server.client.call('POST', '/api/v1/folders/move', {
      token: owner.token,
      body: { from: 'other/', to: 'others/' },
    });
    assert.equal(beside.status, 200, beside.text);
    assert.equal((await release(held._id, { serviceKey })).status, 204);
    const moved = await server.client.call('POST', '/api/v1/folders/move', {
      token: owner.token,
      body: { from: 'case/', to: 'archive/case/' },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body, { moved: 3 });
  });
});
