import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, readlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { type ArchiveWorld, startArchiveWorld } from '../support/archive-world.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 40, items 2–4: POST /api/v1/archives and the ZIP behind its link, checked with the
 * stock readers (unzip, Python's zipfile, 7-Zip) entry by entry against the files' bytes.
 * Refusals, staleness and limits: archive-refusals.test.ts.
 */
describe(`archives (${currentStackName()} stack)`, () => {
  let world: ArchiveWorld;
  before(async () => {
    world = await startArchiveWorld();
  });
  after(() => world?.stop());

  it('a selection: its files under their paths, UTF-8 names, a clash numbered, read by unzip, zipfile and 7-Zip', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const friend = await client.signup();
    const big = randomBytes(300_000);
    const mine = [
      await client.uploadFile(owner.token, 'photos/été/Привет мир.bin', big),
      await client.uploadFile(owner.token, '日本語/ファイル 🎉.txt', 'こんにちは'),
      await client.uploadFile(owner.token, 'empty.txt', ''),
      await client.uploadFile(owner.token, 'notes/a.txt', 'mine'),
    ];
    const shared = await client.uploadFile(friend.token, 'notes/a.txt', 'theirs');
    await client.call('POST', `/api/v1/file/${shared._id}/acl/user/${owner.userId}`, { token: friend.token });
    const ids = [...mine.map((file) => file._id), shared._id, mine[0]!._id];
    const answer = world.created(await world.archive(client, owner.token, { fileIds: ids }));
    assert.equal(answer.fileCount, 5, 'a duplicate id counts once');
    assert.equal(answer.totalBytes, big.length + Buffer.byteLength('こんにちは') + 4 + 6);
    assert.match(answer.url, /\/blob\/v1\/archives\/[^?]+\?exp=\d+&kid=[^&]+&sig=[^&]+$/);

    const head = await fetch(answer.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(answer.archiveBytes));
    assert.equal(head.headers.get('content-type'), 'application/zip');
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    assert.match(head.headers.get('etag') ?? '', /^"[^"]+"$/);
    assert.match(head.headers.get('content-disposition') ?? '', /files\.zip/);

    const { response, bytes } = await world.fetchBytes(answer.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-length'), String(answer.archiveBytes));
    assert.equal(response.headers.get('etag'), head.headers.get('etag'));
    assert.equal(bytes.length, answer.archiveBytes);
    await world.checkZip(
      bytes,
      new Map([
        ['photos/été/Привет мир.bin', world.sha256(big)],
        ['日本語/ファイル 🎉.txt', world.sha256('こんにちは')],
        ['empty.txt', world.sha256('')],
        ['notes/a.txt', world.sha256('mine')],
        ['notes/a (2).txt', world.sha256('theirs')],
      ]),
    );
    const again = await world.fetchBytes(answer.url);
    assert.ok(again.bytes.equals(bytes), 'every download is the same bytes');
  });

  it('a folder: its subtree, names relative to it, named after it; another owner’s through a share', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const reader = await client.signup();
    await client.uploadFile(owner.token, 'album/one.txt', 'one');
    await client.uploadFile(owner.token, 'album/2026/été.txt', 'summer');
    await client.uploadFile(owner.token, 'albums-not-this/x.txt', 'no');
    await client.uploadFile(owner.token, 'other.txt', 'no');
    const expected = new Map([
      ['one.txt', world.sha256('one')],
      ['2026/été.txt', world.sha256('summer')],
    ]);
    const answer = world.created(await world.archive(client, owner.token, { folder: { path: 'album' } }));
    assert.equal(answer.fileCount, 2);
    const { response, bytes } = await world.fetchBytes(answer.url);
    assert.match(response.headers.get('content-disposition') ?? '', /album\.zip/);
    await world.checkZip(bytes, expected);

    // Not shared: nothing of it is told (as GET /api/v1/folders answers another owner's folder).
    world.expectCode(
      await world.archive(client, reader.token, { folder: { owner: owner.userId, path: 'album/' } }),
      404,
      'FOLDER_NOT_FOUND',
    );
    const share = await client.call('POST', '/api/v1/folders/share', {
      token: owner.token,
      body: { path: 'album/', user: reader.userId },
    });
    assert.equal(share.status, 200, share.text);
    const theirs = world.created(
      await world.archive(client, reader.token, { folder: { owner: owner.userId, path: 'album/' } }),
    );
    await world.checkZip((await world.fetchBytes(theirs.url)).bytes, expected);
  });

  it('a broken download resumes with Range and If-Range: the same bytes as a whole download, readable', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const parts = [randomBytes(700_000), randomBytes(5), randomBytes(400_000)];
    const files: { _id: string }[] = [];
    for (const [index, part] of parts.entries())
      files.push(await client.uploadFile(owner.token, `resume/part-${index}.bin`, part));
    // Bytes whose CRC was never recorded (stored before migration 0036, or sent straight to
    // S3): their entries carry data descriptors, and the CRC is learnt from the bytes.
    await world.server.services.database.db
      .updateTable('files')
      .set({ content_crc32: null })
      .where(
        'id',
        'in',
        files.map((file) => file._id),
      )
      .execute();
    const answer = world.created(
      await world.archive(client, owner.token, { fileIds: files.map((file) => file._id) }),
    );
    const whole = await world.fetchBytes(answer.url);
    const etag = whole.response.headers.get('etag')!;

    const make = async () =>
      world.created(await world.archive(client, owner.token, { fileIds: files.map((file) => file._id) }));
    for (const cut of [1, 350_000, 700_100, answer.archiveBytes - 30]) {
      // A fresh archive each time, made while the CRC is unknown again, so the resumed part must
      // compute the CRCs of entries whose bytes it does not send.
      await world.server.services.database.db.updateTable('files').set({ content_crc32: null }).execute();
      const fresh = await make();
      // The first attempt breaks off after `cut` bytes: the client goes away mid-stream.
      const broken = new AbortController();
      const first = await fetch(fresh.url, { signal: broken.signal });
      const received: Buffer[] = [];
      let length = 0;
      const reader = first.body!.getReader();
      while (length < cut) {
        const { value, done } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
        length += value.length;
      }
      broken.abort();
      const head = Buffer.concat(received).subarray(0, cut);
      const rest = await world.fetchBytes(fresh.url, { range: `bytes=${cut}-`, 'if-range': etag });
      assert.equal(rest.response.status, 206);
      assert.equal(
        rest.response.headers.get('content-range'),
        `bytes ${cut}-${fresh.archiveBytes - 1}/${fresh.archiveBytes}`,
      );
      const joined = Buffer.concat([head, rest.bytes]);
      assert.ok(joined.equals(whole.bytes), `resumed at ${cut}: the bytes differ`);
    }
    await world.checkZip(
      whole.bytes,
      new Map(parts.map((part, index) => [`resume/part-${index}.bin`, world.sha256(part)])),
    );
    // The CRCs learnt were kept for the files' versions.
    const kept = await world.server.services.database.db
      .selectFrom('files')
      .select('content_crc32')
      .where(
        'id',
        'in',
        files.map((file) => file._id),
      )
      .execute();
    assert.ok(kept.every((row) => row.content_crc32 !== null));
    // A stale If-Range gets the whole archive; a range past the end is 416.
    const stale = await world.fetchBytes(answer.url, { range: 'bytes=10-', 'if-range': '"other"' });
    assert.equal(stale.response.status, 200);
    assert.ok(stale.bytes.equals(whole.bytes));
    const past = await fetch(answer.url, { headers: { range: `bytes=${answer.archiveBytes}-` } });
    assert.equal(past.status, 416);
    await past.arrayBuffer();
  });

  it('entries of several MiB go out whole and resumed mid-entry, their CRCs learnt from the bytes sent', async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    // Several of the local store's 1 MiB reads per entry, so its buffers are reused within one
    // entry while the CRC is learnt from them; a small one between them (read from memory).
    const parts = [randomBytes(5 * 1024 * 1024 + 17), randomBytes(3), randomBytes(3 * 1024 * 1024)];
    const files: { _id: string }[] = [];
    for (const [index, part] of parts.entries())
      files.push(await client.uploadFile(owner.token, `large/part-${index}.bin`, part));
    const ids = files.map((file) => file._id);
    const forgetCrcs = () =>
      world.server.services.database.db
        .updateTable('files')
        .set({ content_crc32: null })
        .where('id', 'in', ids)
        .execute();
    await forgetCrcs();
    const answer = world.created(await world.archive(client, owner.token, { fileIds: ids }));
    const whole = await world.fetchBytes(answer.url);
    await world.checkZip(
      whole.bytes,
      new Map(parts.map((part, index) => [`large/part-${index}.bin`, world.sha256(part)])),
    );
    await forgetCrcs();
    const fresh = world.created(await world.archive(client, owner.token, { fileIds: ids }));
    // Cut inside the first entry and inside the last: the rest is the same bytes.
    for (const cut of [3 * 1024 * 1024 + 5, fresh.archiveBytes - 2 * 1024 * 1024]) {
      const rest = await world.fetchBytes(fresh.url, { range: `bytes=${cut}-` });
      assert.equal(rest.response.status, 206);
      assert.ok(rest.bytes.equals(whole.bytes.subarray(cut)), `from ${cut}: the bytes differ`);
    }
    const middle = await world.fetchBytes(fresh.url, { range: 'bytes=1000000-4999999' });
    assert.ok(middle.bytes.equals(whole.bytes.subarray(1_000_000, 5_000_000)));
  });

  it('a client that goes away mid-download leaves no stored file open', {
    skip: currentStackName() !== 'embedded' && 'counts open files of the local store',
  }, async () => {
    const client = await world.projectWith();
    const owner = await client.signup();
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1)
      ids.push((await client.uploadFile(owner.token, `gone/${index}.bin`, randomBytes(600_000)))._id);
    // One entry of several 1 MiB reads: the client goes away while the server waits for the
    // socket to take them.
    ids.push((await client.uploadFile(owner.token, 'gone/large.bin', randomBytes(8 * 1024 * 1024)))._id);
    const openBlobFiles = async () => {
      const fds = await readdir('/proc/self/fd');
      const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
      return targets.filter((target) => target.startsWith(world.server.dataDir) && target.includes('blobs'))
        .length;
    };
    const baseline = await openBlobFiles();
    for (const cut of [1, 200_000, 900_000, 1_500_000, 3_000_000]) {
      const answer = world.created(await world.archive(client, owner.token, { fileIds: ids }));
      const gone = new AbortController();
      const reader = (await fetch(answer.url, { signal: gone.signal })).body!.getReader();
      for (let length = 0; length < cut; ) {
        const { value, done } = await reader.read();
        if (done) break;
        length += value.length;
      }
      gone.abort();
    }
    // The server learns of each close in its own time: wait for it (a leaked handle stays
    // open until garbage collection, far past this generous bound).
    for (let tries = 0; tries < 750 && (await openBlobFiles()) > baseline; tries += 1) await setTimeout(20);
    assert.equal(await openBlobFiles(), baseline, 'a stored file was left open');
  });
});
