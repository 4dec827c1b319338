import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 40, contract item 1: the search filters of GET /api/v1/file, on both stacks. */
describe('search: GET /api/v1/file with filters', () => {
  let server: TestServer;
  let ann: Account;
  let bob: Account;
  let eve: Account;
  const ids: Record<string, string> = {};

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.client.call(method, path, { token, body });
  const search = async (account: Account, query: string) => {
    const response = await call('GET', `/api/v1/file?${query}`, account.token);
    assert.equal(response.status, 200, `${query}: ${response.text}`);
    return response.body as { docs: { _id: string; filePath: string }[]; nextCursor?: string; total: number };
  };
  const pathsOf = async (account: Account, query: string) =>
    (await search(account, query)).docs.map((doc) => doc.filePath);
  const upload = async (account: Account, filePath: string, bytes: number, contentType: string) => {
    const file = await server.client.uploadFile(account.token, filePath, Buffer.alloc(bytes, 7), {
      contentType,
    });
    return file._id;
  };
  const setCustom = async (account: Account, id: string, customData: Record<string, unknown>) =>
    assert.equal((await call('PATCH', `/api/v1/file/${id}`, account.token, { customData })).status, 200);

  before(async () => {
    server = await startTestServer();
    [ann, bob, eve] = [
      await server.client.signup(),
      await server.client.signup(),
      await server.client.signup(),
    ];
    // ann's files, oldest first: created one after the other, so createdAt orders them.
    ids.beach = await upload(ann, 'photos/Beach-Day.jpg', 300, 'image/jpeg');
    ids.mountain = await upload(ann, 'photos/mountain.png', 100, 'image/png');
    ids.notes = await upload(ann, 'docs/beach-notes.txt', 50, 'text/plain');
    ids.report = await upload(ann, 'docs/report.pdf', 1000, 'application/pdf');
    await setCustom(ann, ids.beach, { album: 'summer', year: 2024, starred: true });
    await setCustom(ann, ids.mountain, { album: 'winter', year: 2024, starred: false });
    await setCustom(ann, ids.notes, { album: 'summer', year: '2024' });
    // A stranger's twins of every file: none may ever show to ann or bob.
    ids.eveBeach = await upload(eve, 'photos/beach-eve.jpg', 300, 'image/jpeg');
    await setCustom(eve, ids.eveBeach, { album: 'summer', year: 2024, starred: true });
    await upload(eve, 'docs/beach-report.pdf', 1000, 'application/pdf');
  });
  after(() => server?.stop());

  it('answers each filter alone, and combined', async () => {
    assert.deepEqual(await pathsOf(ann, 'name=BEACH'), ['docs/beach-notes.txt', 'photos/Beach-Day.jpg']);
    // The name is the last segment: "photos" is in the folder, not in any name.
    assert.deepEqual(await pathsOf(ann, 'name=photos'), []);
    assert.deepEqual(await pathsOf(ann, 'contentType=image/*'), [
      'photos/mountain.png',
      'photos/Beach-Day.jpg',
    ]);
    assert.deepEqual(await pathsOf(ann, 'contentType=application/pdf'), ['docs/report.pdf']);
    assert.deepEqual(await pathsOf(ann, 'customData.album=summer'), [
      'docs/beach-notes.txt',
      'photos/Beach-Day.jpg',
    ]);
    // By the value's JSON form: 2024 the number, "2024" the string, true the boolean.
    assert.deepEqual(await pathsOf(ann, 'customData.year=2024'), [
      'photos/mountain.png',
      'photos/Beach-Day.jpg',
    ]);
    assert.deepEqual(await pathsOf(ann, 'customData.year=%222024%22'), ['docs/beach-notes.txt']);
    assert.deepEqual(await pathsOf(ann, 'customData.starred=true'), ['photos/Beach-Day.jpg']);
    assert.deepEqual(await pathsOf(ann, 'minSize=100&maxSize=300'), [
      'photos/mountain.png',
      'photos/Beach-Day.jpg',
    ]);
    assert.deepEqual(await pathsOf(ann, 'minSize=1000'), ['docs/report.pdf']);
    const all = await search(ann, 'sort=createdAt&order=asc');
    assert.equal(all.docs.length, 4);
    // Files created within one millisecond would make the dates below ambiguous.
    const created = all.docs.map((doc) => (doc as unknown as { __createdAt: string }).__createdAt);
    assert.equal(new Set(created).size, 4);
    const middle = created[1]!;
    assert.deepEqual(await pathsOf(ann, `createdAfter=${encodeURIComponent(middle)}&order=asc`), [
      'docs/beach-notes.txt',
      'docs/report.pdf',
    ]);
    assert.deepEqual(await pathsOf(ann, `createdBefore=${encodeURIComponent(middle)}`), [
      'photos/Beach-Day.jpg',
    ]);
    assert.deepEqual(
      await pathsOf(ann, 'name=beach&contentType=image/*&customData.album=summer&customData.year=2024'),
      ['photos/Beach-Day.jpg'],
    );
    assert.deepEqual(await pathsOf(ann, 'name=beach&filePath=docs/'), ['docs/beach-notes.txt']);
    assert.deepEqual(await pathsOf(ann, 'customData.album=summer&maxSize=100'), ['docs/beach-notes.txt']);
  });

  it('sorts by createdAt, name and size, both ways', async () => {
    assert.deepEqual(await pathsOf(ann, 'sort=name&order=asc&scope=mine'), [
      'photos/Beach-Day.jpg',
      'docs/beach-notes.txt',
      'photos/mountain.png',
      'docs/report.pdf',
    ]);
    assert.deepEqual(await pathsOf(ann, 'sort=size&scope=mine'), [
      'docs/report.pdf',
      'photos/Beach-Day.jpg',
      'photos/mountain.png',
      'docs/beach-notes.txt',
    ]);
    assert.deepEqual(await pathsOf(ann, 'sort=size&order=asc&contentType=image/*'), [
      'photos/mountain.png',
      'photos/Beach-Day.jpg',
    ]);
    assert.deepEqual(await pathsOf(ann, 'sort=createdAt&order=desc&scope=mine'), [
      'docs/report.pdf',
      'docs/beach-notes.txt',
      'photos/mountain.png',
      'photos/Beach-Day.jpg',
    ]);
  });

  it('never shows a stranger file, whatever the filter', async () => {
    const eveIds = new Set((await search(eve, 'scope=mine&pageSize=100')).docs.map((doc) => doc._id));
    assert.equal(eveIds.size, 2);
    for (const query of [
      'name=beach',
      'contentType=image/*',
      'contentType=application/pdf',
      'customData.album=summer',
      'customData.starred=true',
      'minSize=1',
      'createdAfter=2000-01-01',
      'sort=name',
      'sort=size',
      'scope=shared',
      'scope=all&sort=name&order=asc',
      'filePath=photos/&name=eve',
    ])
      for (const account of [ann, bob]) {
        const found = await search(account, `${query}&pageSize=100`);
        assert.ok(!found.docs.some((doc) => eveIds.has(doc._id)), `${query} showed eve's file`);
      }
  });

  it('scope: mine, shared (user, role and folder shares) and all; a folder unshared hides its files', async () => {
    const reader = await server.client.signup();
    const owner = await server.client.signup();
    const own = await upload(reader, 'mine/own-photo.jpg', 10, 'image/jpeg');
    const byUser = await upload(owner, 'loose/user-photo.jpg', 10, 'image/jpeg');
    const inFolder = await upload(owner, 'trip/day1/folder-photo.jpg', 10, 'image/jpeg');
    await upload(owner, 'other/unshared-photo.jpg', 10, 'image/jpeg');
    assert.equal(
      (await call('POST', `/api/v1/file/${byUser}/acl/user/${reader.userId}`, owner.token)).status,
      200,
    );
    const folder = { path: 'trip/', user: reader.userId };
    assert.equal((await call('POST', '/api/v1/folders/share', owner.token, folder)).status, 200);
    const idsOf = async (query: string) => (await search(reader, query)).docs.map((doc) => doc._id).sort();
    assert.deepEqual(await idsOf('scope=mine&name=photo'), [own]);
    assert.deepEqual(await idsOf('scope=shared&name=photo'), [byUser, inFolder].sort());
    assert.deepEqual(await idsOf('scope=all&name=photo'), [own, byUser, inFolder].sort());
    // The walk plan (no selective filter) answers the same sets.
    assert.deepEqual(await idsOf('scope=shared'), [byUser, inFolder].sort());
    assert.deepEqual(await idsOf('scope=all'), [own, byUser, inFolder].sort());
    assert.deepEqual(await idsOf('scope=shared&sort=name'), [byUser, inFolder].sort());
    assert.equal((await call('POST', '/api/v1/folders/unshare', owner.token, folder)).status, 200);
    assert.deepEqual(await idsOf('scope=shared&name=photo'), [byUser]);
    assert.deepEqual(await idsOf('scope=shared'), [byUser]);
  });

  it('pages by cursor through every match, with no duplicate and no gap, while files are added', async () => {
    const pager = await server.client.signup();
    const expected: string[] = [];
    for (let index = 0; index < 7; index++)
      expected.push(await upload(pager, `pages/page-${index}.txt`, index + 1, 'text/plain'));
    for (const sort of ['createdAt', 'name', 'size'])
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        let cursor: string | undefined;
        let added = 0;
        do {
          const found = await search(
            pager,
            `name=page-&sort=${sort}&order=${order}&pageSize=2${cursor ? `&cursor=${cursor}` : ''}`,
          );
          seen.push(...found.docs.map((doc) => doc._id));
          cursor = found.nextCursor;
          // A file added mid-way, named so it sorts after every page already answered in no order:
          // a keyset cursor neither repeats nor skips the files it was counting.
          if (added++ < 2) await upload(pager, `pages/other-${sort}-${order}-${added}.txt`, 1, 'text/plain');
        } while (cursor !== undefined);
        assert.equal(new Set(seen).size, seen.length, `${sort} ${order}: a file twice`);
        assert.deepEqual([...seen].sort(), [...expected].sort(), `${sort} ${order}`);
      }
  });

  it('refuses bad parameters with 400', async () => {
    const refused = async (query: string, code = 'VALIDATION_FAILED') => {
      const response = await call('GET', `/api/v1/file?${query}`, ann.token);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(response.body.code, code, query);
    };
    await refused('name=ab');
    await refused('createdAfter=yesterday');
    await refused('createdBefore=2026-02-31');
    await refused('minSize=-1');
    await refused('maxSize=1.5');
    await refused('sort=owner');
    await refused('order=up');
    await refused('scope=everyone');
    await refused('contentType=image');
    await refused('tag=summer');
    await refused('customData.=x');
    await refused('cursor=garbage');
    const first = await search(ann, 'scope=mine&pageSize=1');
    assert.ok(first.nextCursor);
    await refused(`scope=mine&pageSize=1&cursor=${first.nextCursor}&pageNumber=2`);
    // A cursor is read in the order it was made in only.
    await refused(`scope=mine&pageSize=1&cursor=${first.nextCursor}&order=asc`);
  });
});
