import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteProject } from '../../src/domain/identity/delete-project.ts';
import { type ArchiveWorld, startArchiveWorld } from '../support/archive-world.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 40: what an archive refuses: stale files (410), refused files named (403, 404, 409),
 * the limits (413), a deleted project, and links expired or altered.
 */
describe(`archive refusals (${currentStackName()} stack)`, () => {
  let world: ArchiveWorld;
  before(async () => {
    world = await startArchiveWorld();
  });
  after(() => world?.stop());

  it('410 ARCHIVE_STALE once a file is trashed, deleted, replaced or its links revoked; before any byte', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const make = async (name: string) => {
      const file = await client.uploadFile(owner.token, `stale/${name}.txt`, name);
      const keep = await client.uploadFile(owner.token, `stale/${name}-kept.txt`, 'kept');
      const answer = world.created(
        await world.archive(client, owner.token, { fileIds: [file._id, keep._id] }),
      );
      assert.equal((await fetch(answer.url, { method: 'HEAD' })).status, 200);
      return { file, url: answer.url };
    };
    const trashed = await make('trashed');
    assert.equal(
      (await client.call('DELETE', `/api/v1/file/${trashed.file._id}`, { token: owner.token })).status,
      204,
    );
    const purged = await make('purged');
    await client.call('DELETE', `/api/v1/file/${purged.file._id}`, { token: owner.token });
    assert.equal(
      (await client.call('DELETE', `/api/v1/trash/${purged.file._id}`, { token: owner.token })).status,
      204,
    );
    const replaced = await make('replaced');
    const requested = await client.call('POST', `/api/v1/file/${replaced.file._id}/versions`, {
      token: owner.token,
      body: {},
    });
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: 'new',
      headers: { 'content-type': 'text/plain' },
    });
    const verified = await client.call('POST', new URL(requested.body.postVerifyUploadUrl).pathname, {
      token: owner.token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const revoked = await make('revoked');
    assert.equal(
      (await client.call('POST', `/api/v1/file/${revoked.file._id}/links/revoke`, { token: owner.token }))
        .status,
      204,
    );
    for (const { url } of [trashed, purged, replaced, revoked]) {
      world.expectCode(await world.errorOf(url), 410, 'ARCHIVE_STALE');
      assert.equal((await world.errorOf(url, 'HEAD')).status, 410);
      world.expectCode(
        await (async () => {
          const response = await fetch(url, { headers: { range: 'bytes=100-' } });
          return { status: response.status, body: await response.json() };
        })(),
        410,
        'ARCHIVE_STALE',
      );
    }
  });

  it("refused files are named (403, 404, 409) and nothing is made; a stranger's file never goes in", async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const stranger = await client.signup();
    const mine = await client.uploadFile(owner.token, 'mine.txt', 'mine');
    const theirs = await client.uploadFile(stranger.token, 'theirs.txt', 'theirs');
    const theirsToo = await client.uploadFile(stranger.token, 'theirs-too.txt', 'theirs');
    const before = await world.archivedRows();
    const denied = await world.archive(client, owner.token, {
      fileIds: [mine._id, theirs._id, theirsToo._id],
    });
    world.expectCode(denied, 403, 'ACCESS_DENIED');
    assert.deepEqual(denied.body.details, { fileIds: [theirs._id, theirsToo._id], moreFileIds: 0 });
    const unknown = await world.archive(client, owner.token, {
      fileIds: [mine._id, 'AAAAAAAAAAAAAAAAAAAAAA', 'not an id'],
    });
    world.expectCode(unknown, 404, 'FILE_NOT_FOUND');
    assert.deepEqual(unknown.body.details.fileIds, ['AAAAAAAAAAAAAAAAAAAAAA', 'not an id']);
    const pending = await client.call('POST', '/api/v1/file', {
      token: owner.token,
      body: { filePath: 'pending.txt' },
    });
    const unverified = await world.archive(client, owner.token, { fileIds: [mine._id, pending.body.fileId] });
    world.expectCode(unverified, 409, 'FILE_NOT_VERIFIED');
    assert.deepEqual(unverified.body.details.fileIds, [pending.body.fileId]);
    // A stranger's whole root: nothing readable, nothing told.
    world.expectCode(
      await world.archive(client, owner.token, { folder: { owner: stranger.userId, path: '' } }),
      404,
      'FOLDER_NOT_FOUND',
    );
    assert.equal(await world.archivedRows(), before, 'no archive was made');
    // Bad bodies are 400.
    for (const body of [
      {},
      { fileIds: [] },
      { fileIds: ['x'], folder: { path: 'a' } },
      { folder: {} },
      { fileIds: [mine._id], expiresInSeconds: 0 },
    ])
      world.expectCode(await world.archive(client, owner.token, body), 400, 'VALIDATION_FAILED');
    // No token: 401, whatever the body.
    assert.equal(
      (await client.call('POST', '/api/v1/archives', { body: { fileIds: [mine._id] } })).status,
      401,
    );
  });

  it('413 ARCHIVE_TOO_LARGE past maxArchiveFiles or maxArchiveBytes, for a selection and a folder', async () => {
    const few = await world.projectWith({ maxArchiveFiles: 2 });
    const owner = await few.signup();
    const files: { _id: string }[] = [];
    for (const name of ['a', 'b', 'c'])
      files.push(await few.uploadFile(owner.token, `limit/${name}.txt`, name));
    const before = await world.archivedRows();
    world.expectCode(
      await world.archive(few, owner.token, { fileIds: files.map((file) => file._id) }),
      413,
      'ARCHIVE_TOO_LARGE',
    );
    world.expectCode(
      await world.archive(few, owner.token, { folder: { path: 'limit/' } }),
      413,
      'ARCHIVE_TOO_LARGE',
    );
    world.created(
      await world.archive(few, owner.token, { fileIds: files.slice(0, 2).map((file) => file._id) }),
    );

    const small = await world.projectWith({ maxArchiveBytes: 10 });
    const user = await small.signup();
    const a = await small.uploadFile(user.token, 'bytes/a.txt', '123456');
    const b = await small.uploadFile(user.token, 'bytes/b.txt', '123456');
    world.expectCode(
      await world.archive(small, user.token, { fileIds: [a._id, b._id] }),
      413,
      'ARCHIVE_TOO_LARGE',
    );
    world.expectCode(
      await world.archive(small, user.token, { folder: { path: 'bytes' } }),
      413,
      'ARCHIVE_TOO_LARGE',
    );
    assert.equal(await world.archivedRows(), before + 1, 'only the archive within the limits was made');
  });

  it('deleting a project removes its archives', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const file = await client.uploadFile(owner.token, 'doomed.txt', 'x');
    world.created(await world.archive(client, owner.token, { fileIds: [file._id] }));
    const { projectId } = client.credentials;
    const rowsOf = async () =>
      (
        await world.server.services.database.db
          .selectFrom('archives')
          .innerJoin('archive_entries', 'archive_entries.archive_id', 'archives.id')
          .select('archives.id')
          .where('archives.project_id', '=', projectId)
          .execute()
      ).length;
    assert.equal(await rowsOf(), 1);
    const project = await world.server.services.repositories.projects.findById(projectId);
    await deleteProject({
      deletion: world.server.services.repositories.projectDeletion,
      blobs: world.server.services.blobs,
      project: project!,
    });
    assert.equal(await rowsOf(), 0);
    const entries = await world.server.services.database.db
      .selectFrom('archive_entries')
      .select('file_id')
      .where('file_id', '=', file._id)
      .execute();
    assert.deepEqual(entries, []);
  });

  it('a link refused once expired, and when any part of it is altered', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const file = await client.uploadFile(owner.token, 'expiring.txt', 'x');
    const answer = world.created(
      await world.archive(client, owner.token, { fileIds: [file._id], expiresInSeconds: 60 }),
    );
    assert.equal(answer.expiresAt, world.clock.seconds + 60);
    assert.equal((await fetch(answer.url, { method: 'HEAD' })).status, 200);
    // Its signature's first character changed (to one it is not: a signature may begin with A).
    const altered = answer.url.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    world.expectCode(await world.errorOf(altered), 403, 'INVALID_SIGNATURE');
    world.expectCode(
      await world.errorOf(answer.url.replace('&kid=', '&gen=0&kid=')),
      403,
      'INVALID_SIGNATURE',
    );
    world.expectCode(
      await world.errorOf(answer.url.replace(/exp=\d+/, `exp=${answer.expiresAt + 1}`)),
      403,
      'INVALID_SIGNATURE',
    );
    // A download link's signature is no archive link's.
    const download = await client.call('GET', `/api/v1/file/${file._id}`, { token: owner.token });
    const query = new URL(download.body.url).search;
    world.expectCode(
      await world.errorOf(`${new URL(answer.url).origin}/blob/v1/archives/${file._id}${query}`),
      403,
      'INVALID_SIGNATURE',
    );
    world.clock.advance(61);
    world.expectCode(await world.errorOf(answer.url), 403, 'LINK_EXPIRED');
  });
});
