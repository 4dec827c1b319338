import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CofferClient, CofferError } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

// search, searchAll and archive against a real server (issue 40): the filters as query
// parameters, the cursor followed, and a ZIP that Debian's unzip reads.
describe('@coffer/client: search and archives', () => {
  const clock = new ManualClock();
  let server: TestServer;
  const newClient = () =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
    });
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server.stop());

  /** The error a call ends with (status and code), or 'none'. */
  async function errorOf(call: Promise<unknown>): Promise<string> {
    try {
      await call;
      return 'none';
    } catch (error) {
      assert.ok(error instanceof CofferError, String(error));
      return `${error.status} ${error.code}`;
    }
  }

  it('finds by name, type, customData (by JSON form), size, dates and scope, and follows the cursor', async () => {
    const ada = newClient();
    const bob = newClient();
    await ada.signup({ email: 'ada@find.example', password: 'correct horse' });
    const bobSession = await bob.signup({ email: 'bob@find.example', password: 'battery staple' });
    const upload = async (filePath: string, body: string, contentType: string, customData?: unknown) => {
      const file = await ada.upload(filePath, body, { contentType });
      clock.advance(1); // newest first: one second apart on the server's clock
      return customData === undefined ? file : ada.update(file._id, { customData });
    };
    const beach = await upload('trips/Beach-Day.jpg', 'sand and sea', 'image/jpeg', { album: 7, tag: 'sun' });
    const beach2 = await upload('trips/beach-night.png', 'stars', 'image/png', { album: '7', tag: 'true' });
    const notes = await upload('notes/beach-notes.txt', 'a longer text about the beach', 'text/plain', {
      album: 7,
      done: true,
    });
    const bobs = await bob.upload('mine/beachball.jpg', 'bob', { contentType: 'image/jpeg' });
    await ada.share(notes._id, { userId: bobSession.userId });

    const ids = async (client: CofferClient, filters: Parameters<CofferClient['search']>[0]) =>
      (await client.search(filters)).docs.map((file) => file._id);
    assert.deepEqual(await ids(ada, { name: 'BEACH' }), [notes._id, beach2._id, beach._id]);
    assert.deepEqual(await ids(ada, { name: 'beach', contentType: 'image/*' }), [beach2._id, beach._id]);
    assert.deepEqual(await ids(ada, { contentType: 'image/png' }), [beach2._id]);
    assert.deepEqual(await ids(ada, { customData: { album: 7 } }), [notes._id, beach._id], '7, not "7"');
    assert.deepEqual(await ids(ada, { customData: { album: '7' } }), [beach2._id], '"7", not 7');
    assert.deepEqual(await ids(ada, { customData: { tag: 'true' } }), [beach2._id], 'the text "true"');
    assert.deepEqual(await ids(ada, { customData: { done: true, album: 7 } }), [notes._id]);
    assert.deepEqual(await ids(ada, { customData: { tag: 'sun' } }), [beach._id]);
    assert.deepEqual(await ids(ada, { minSize: 10, name: 'beach' }), [notes._id, beach._id]);
    assert.deepEqual(await ids(ada, { maxSize: 5, name: 'bea' }), [beach2._id]);
    assert.deepEqual(
      await ids(ada, { name: 'beach', createdAfter: new Date(Date.parse(beach.__createdAt) + 500) }),
      [notes._id, beach2._id],
    );
    assert.deepEqual(
      await ids(ada, { name: 'beach', createdBefore: new Date(Date.parse(beach.__createdAt) + 500) }),
      [beach._id],
    );
    assert.deepEqual(await ids(ada, { name: 'beach', sort: 'name', order: 'asc' }), [
      beach._id,
      beach2._id,
      notes._id,
    ]);
    assert.deepEqual(await ids(ada, { name: 'beach', filePath: 'trips/' }), [beach2._id, beach._id]);
    assert.deepEqual(await ids(bob, { name: 'beach', scope: 'shared' }), [notes._id]);
    assert.deepEqual(await ids(bob, { name: 'beach', scope: 'mine' }), [bobs._id]);
    assert.deepEqual((await ids(bob, { name: 'beach' })).sort(), [bobs._id, notes._id].sort());
    assert.equal(await errorOf(ada.search({ name: 'be' })), '400 VALIDATION_FAILED');

    const first = await ada.search({ name: 'beach', pageSize: 2 });
    assert.equal(first.docs.length, 2);
    assert.ok(first.nextCursor, 'a next page');
    const all: string[] = [];
    for await (const file of ada.searchAll({ name: 'beach', pageSize: 1 })) all.push(file._id);
    assert.deepEqual(all, [notes._id, beach2._id, beach._id]);
  });

  it('zips a selection and a folder into a link whose ZIP unzip reads, and refuses a file the caller may not read', async () => {
    const cy = newClient();
    const dee = newClient();
    await cy.signup({ email: 'cy@zip.example', password: 'correct horse' });
    await dee.signup({ email: 'dee@zip.example', password: 'battery staple' });
    const one = await cy.upload('album/one.txt', 'first file');
    const two = await cy.upload('album/sub/two.txt', 'second file, longer');
    const other = await cy.upload('elsewhere/three.txt', '3');

    const selection = await cy.archive({ fileIds: [one._id, other._id] }, { expiresInSeconds: 300 });
    assert.deepEqual([selection.fileCount, selection.totalBytes], [2, 11]);
    assert.ok(selection.expiresAt > Date.now() / 1000, 'expiresAt in Unix seconds, ahead');
    const selectionZip = await fetchZip(selection.url, selection.archiveBytes, 'selection.zip');
    assert.deepEqual(unzipNames(selectionZip), ['album/one.txt', 'elsewhere/three.txt']);

    const folder = await cy.archive({ folder: { path: 'album/' } });
    assert.deepEqual([folder.fileCount, folder.totalBytes], [2, 29]);
    const folderZip = await fetchZip(folder.url, folder.archiveBytes, 'folder.zip');
    assert.deepEqual(unzipNames(folderZip), ['one.txt', 'sub/two.txt']);
    assert.equal(
      execFileSync('unzip', ['-p', folderZip, 'sub/two.txt'], { encoding: 'utf8' }),
      'second file, longer',
    );
    execFileSync('unzip', ['-tq', folderZip]);

    assert.equal(await errorOf(dee.archive({ fileIds: [two._id] })), '403 ACCESS_DENIED');
  });

  /** Downloads the archive's link to a file of the test's data dir; checks its length first. */
  async function fetchZip(url: string, archiveBytes: number, name: string): Promise<string> {
    const response = await fetch(url);
    assert.equal(response.status, 200);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(bytes.length, archiveBytes, 'archiveBytes is the length of the ZIP');
    const file = path.join(server.dataDir, name);
    await writeFile(file, bytes);
    return file;
  }

  const unzipNames = (file: string) =>
    execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
});
