import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** The error a call ends with (its code), or 'none'. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'none';
  } catch (error) {
    assert.ok(error instanceof CofferError, String(error));
    return error.code;
  }
}

// The client's calls beyond upload/get/share (file-organizing.ts), against a real server.
describe('@coffer/client: sharing by email, links, copy, move, customData, bulk delete, guests', () => {
  let server: TestServer;
  const newClient = () =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
    });
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('shares with a user named by email, finds a user by email, revokes the links of a file', async () => {
    const alice = newClient();
    const bob = newClient();
    await alice.signup({ email: 'alice@ops.example', password: 'correct horse' });
    const bobSession = await bob.signup({ email: 'bob@ops.example', password: 'battery staple' });
    const file = await alice.upload('ops/shared.txt', 'for bob');
    assert.equal(await codeOf(bob.get(file._id)), 'ACCESS_DENIED');
    const shared = await alice.share(file._id, { email: 'Bob@Ops.example' });
    assert.ok(shared.acl.some((entry) => entry.scope === 'user' && entry.identifier === bobSession.userId));
    const { url } = await bob.get(file._id);
    assert.equal(await (await fetch(url)).text(), 'for bob');
    await alice.revokeLinks(file._id);
    assert.equal((await fetch(url)).status, 403, 'a link handed out before the revocation stops working');
    assert.equal(await (await bob.download(file._id)).text(), 'for bob', 'a new link works');
    assert.equal(await codeOf(alice.share(file._id, { email: 'nobody@ops.example' })), 'USER_NOT_FOUND');
  });

  it('copies, moves and annotates a file, and deletes several at once with one outcome each', async () => {
    const carol = newClient();
    const dave = newClient();
    await carol.signup({ email: 'carol@ops.example', password: 'correct horse' });
    await dave.signup({ email: 'dave@ops.example', password: 'correct horse' });
    const file = await carol.upload('ops/original.txt', 'the bytes');
    const copy = await carol.copy(file._id, { filePath: 'ops/copy.txt' });
    assert.notEqual(copy._id, file._id);
    assert.equal(await (await carol.download(copy._id)).text(), 'the bytes');
    const moved = await carol.move(file._id, { filePath: 'ops/moved.txt' });
    assert.match(moved.filePath, /ops\/moved\.txt$/);
    const updated = await carol.update(file._id, { customData: { album: 'summer' } });
    assert.deepEqual(updated.customData, { album: 'summer' });
    assert.deepEqual((await carol.get(file._id)).customData, { album: 'summer' });
    const davesFile = await dave.upload('ops/daves.txt', 'not carol’s');
    const outcomes = await carol.deleteMany([file._id, copy._id, davesFile._id]);
    assert.deepEqual(
      outcomes.map(({ fileId, statusCode }) => [fileId, statusCode]),
      [
        [file._id, 204],
        [copy._id, 204],
        [davesFile._id, outcomes[2]!.statusCode],
      ],
    );
    assert.ok(outcomes[2]!.statusCode >= 400, 'another user’s file is not deleted');
    assert.equal(await codeOf(carol.get(file._id)), 'FILE_NOT_FOUND');
    assert.equal(await (await dave.download(davesFile._id)).text(), 'not carol’s');
  });

  it('signs up a guest without email or password, and finding users by email is for admins', async () => {
    const guest = newClient();
    assert.equal(await codeOf(guest.signupAnonymous()), 'ACCESS_DENIED', 'closed by default');
    const { projects } = server.services.repositories;
    const project = await projects.findById(server.credentials.projectId);
    await projects.updateSettings(project!.id, { ...project!.settings, anonymousSignup: true });
    // Settings reach the request path within a moment (they are cached): try until they have.
    const deadline = Date.now() + 30_000;
    let session = await guest.signupAnonymous().catch(() => undefined);
    while (!session && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      session = await guest.signupAnonymous().catch(() => undefined);
    }
    assert.ok(session?.token, 'a guest session once the project allows guests');
    const profile = await guest.profile();
    assert.deepEqual([profile._id, profile.role], [session.userId, 'anonymous']);
    const erin = newClient();
    await erin.signup({ email: 'erin@ops.example', password: 'correct horse' });
    // Only the project's admins look users up by email (docs/security.md, "Finding users").
    assert.equal(await codeOf(erin.findUser('alice@ops.example')), 'ACCESS_DENIED');
  });

  it('holds a file and releases it (a project admin): a held file moves for no one', async () => {
    const owner = newClient();
    await owner.signup({ email: 'olga@ops.example', password: 'correct horse' });
    const admin = newClient();
    const adminSession = await admin.signup({ email: 'adam@ops.example', password: 'correct horse' });
    await server.services.repositories.users.setRole(
      server.credentials.projectId,
      adminSession.userId,
      'admin',
    );
    const file = await owner.upload('ops/held.txt', 'evidence');
    assert.equal(await codeOf(owner.hold(file._id, 'mine')), 'ACCESS_DENIED');
    const held = await admin.hold(file._id, 'litigation 42');
    assert.equal(held.hold?.reason, 'litigation 42');
    assert.equal(await codeOf(owner.move(file._id, { filePath: 'ops/moved.txt' })), 'FILE_ON_HOLD');
    await admin.release(file._id);
    assert.equal((await owner.get(file._id)).hold, undefined);
    assert.equal((await owner.move(file._id, { filePath: 'ops/moved.txt' })).filePath, 'ops/moved.txt');
  });
});
