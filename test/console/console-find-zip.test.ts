import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// Issue 40 through the console API: the search box's route (every owner's files, by the
// project's admin rules) and the zip route (an archive made as the project's admin).
describe('console: search and zip', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let base: string;
  let ada: { token: string; userId: string };
  let bob: { token: string; userId: string; email: string };
  const ids: Record<string, string> = {};

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    base = `/projects/${coffer.credentials.projectId}`;
    ada = await coffer.client.signup();
    bob = await coffer.client.signup();
    for (const [filePath, type] of [
      ['trip/Beach.png', 'image/png'],
      ['trip/beach-notes.txt', 'text/plain'],
      ['trip/day2/sea.txt', 'text/plain'],
    ] as const)
      ids[filePath] = (
        await coffer.client.uploadFile(ada.token, filePath, `content of ${filePath}`, { contentType: type })
      )._id;
    ids.bobs = (await coffer.client.uploadFile(bob.token, 'mine/beachball.txt', 'bob’s'))._id;
  });
  after(() => coffer.stop());

  it('searches every owner by name and type, with a path prefix, a page at a time', async () => {
    const search = async (query: string) => {
      const answer = await call('GET', `${base}/files/search?${query}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.files.map((file: { _id: string }) => file._id).sort();
    };
    assert.deepEqual(
      await search('name=BEACH'),
      [ids['trip/Beach.png'], ids['trip/beach-notes.txt'], ids.bobs].sort(),
    );
    assert.deepEqual(await search('name=beach&contentType=image/*'), [ids['trip/Beach.png']]);
    assert.deepEqual(
      await search('contentType=text/plain&prefix=trip/'),
      [ids['trip/beach-notes.txt'], ids['trip/day2/sea.txt']].sort(),
    );
    const short = await call('GET', `${base}/files/search?name=be`);
    assert.deepEqual([short.status, short.body.code], [400, 'VALIDATION_FAILED']);
    const first = await call('GET', `${base}/files/search?name=beach`);
    assert.equal(first.body.next, null, 'all in one page');
    const bobs = first.body.files.find((file: { _id: string }) => file._id === ids.bobs);
    assert.equal(bobs.people[bobs.creator], bob.email, 'people by email, as the listing shows them');
  });

  it('zips a folder of any owner and a selection across owners: a same-origin link unzip reads', async () => {
    const folder = await call('POST', `${base}/archives`, { folder: { owner: ada.userId, path: 'trip/' } });
    assert.equal(folder.status, 201, JSON.stringify(folder.body));
    assert.equal(folder.body.fileCount, 3);
    assert.ok(folder.body.url.startsWith(`${coffer.baseUrl}/blob/v1/archives/`), folder.body.url);
    const zip = path.join(coffer.dataDir, 'console-folder.zip');
    const response = await fetch(folder.body.url);
    assert.equal(response.status, 200);
    await writeFile(zip, Buffer.from(await response.arrayBuffer()));
    execFileSync('unzip', ['-tq', zip]);
    assert.deepEqual(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort(), [
      'Beach.png',
      'beach-notes.txt',
      'day2/sea.txt',
    ]);

    const selection = await call('POST', `${base}/archives`, {
      fileIds: [ids['trip/day2/sea.txt'], ids.bobs],
    });
    assert.equal(selection.status, 201, JSON.stringify(selection.body));
    assert.equal(selection.body.fileCount, 2);
    const unknown = await call('POST', `${base}/archives`, { fileIds: ['AAAAAAAAAAAAAAAAAAAAAA'] });
    assert.ok([403, 404].includes(unknown.status), JSON.stringify(unknown.body));
    const bad = await call('POST', `${base}/archives`, { fileIds: [] });
    assert.equal(bad.status, 400);
  });
});
