import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FileSearchQuery } from '../../src/domain/files/file-search.ts';
import { searchFiles } from '../../src/persistence/repositories/files/search-files.ts';
import { at, newFile, newProjectId } from '../contract/repository-fixtures.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Account = Awaited<ReturnType<ApiClient['signup']>>;

/** Issue 40: a search's cost is bounded (an examination budget), and its indexes stay exact. */
describe('search: budget, QUERY_TOO_BROAD and the customData index', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.client.call(method, path, { token, body });

  it('a rare filter over many files: each page examines at most the budget, and paging reaches every match', async () => {
    const repos = server.services.repositories;
    const db = server.services.database.db;
    const projectId = await newProjectId(repos);
    const reader = 'reader-1';
    const expected: string[] = [];
    // 40 of the reader's files, 3 of them tagged; 20 tagged files of others make the tag too
    // common in the project (> budget) for the filter plan: the reader's set is walked.
    for (let index = 0; index < 60; index++) {
      const mine = index < 40;
      const tagged = mine ? index % 15 === 7 : true;
      const file = newFile(projectId, {
        creatorId: mine ? reader : `other-${index}`,
        customData: tagged ? { tag: 'rare' } : { tag: 'common' },
      });
      await repos.files.create(file, at(index * 10));
      if (mine && tagged) expected.push(file.id);
    }
    const query: FileSearchQuery = {
      projectId,
      readerId: reader,
      readerRole: 'user',
      isAdmin: false,
      filters: { customData: [{ key: 'tag', value: 'rare' }] },
      sort: 'createdAt',
      order: 'desc',
      scope: 'all',
      limit: 10,
      offset: 0,
    };
    const found: string[] = [];
    let pages = 0;
    let cutShort = 0;
    let after: FileSearchQuery['after'];
    do {
      const page = await searchFiles(db, { ...query, after }, { budget: 5 });
      found.push(...page.files.map((file) => file.id));
      if (page.next !== undefined && page.files.length < query.limit) cutShort++;
      after = page.next;
      pages++;
      assert.ok(pages < 20, 'the cursor moves on');
    } while (after !== undefined);
    assert.deepEqual(found, [...expected].reverse());
    // 40 files at 5 a page: the budget, not the page size, ended most pages.
    assert.ok(pages >= 8, `${pages} pages`);
    assert.ok(cutShort >= 7, `${cutShort} pages cut short`);
    // With the default budget the same search is one page.
    const whole = await searchFiles(db, query);
    assert.deepEqual(
      whole.files.map((file) => file.id),
      [...expected].reverse(),
    );
    assert.equal(whole.next, undefined);
    // A sort no index of a shared set serves, over more shared files than the budget: refused.
    for (let index = 0; index < 6; index++) {
      const shared = newFile(projectId, { creatorId: 'sharer' });
      await repos.files.create(shared, at(1000 + index));
      await repos.files.addAclEntry(shared.id, { scope: 'user', identifier: reader }, at(1000 + index));
    }
    await assert.rejects(
      searchFiles(db, { ...query, filters: { customData: [] }, sort: 'name' }, { budget: 5 }),
      (error: { code?: string }) => error.code === 'QUERY_TOO_BROAD',
    );
    // The same over the reader's own files only has an index in name order.
    const mine = await searchFiles(
      db,
      { ...query, filters: { customData: [] }, sort: 'name', scope: 'mine' },
      { budget: 5 },
    );
    assert.ok(mine.next !== undefined);
  });

  it('refuses a walk over more folders shared with the caller than it follows, unless a filter is selective', async () => {
    const owner = await server.client.signup();
    const reader = await server.client.signup();
    for (let index = 0; index < 17; index++) {
      await server.client.uploadFile(owner.token, `f${index}/photo-${index}.jpg`, 'x', {
        contentType: 'image/jpeg',
      });
      const share = await call('POST', '/api/v1/folders/share', owner.token, {
        path: `f${index}/`,
        user: reader.userId,
      });
      assert.equal(share.status, 200, share.text);
    }
    const broad = await call('GET', '/api/v1/file?scope=shared', reader.token);
    assert.equal(broad.status, 400, broad.text);
    assert.equal(broad.body.code, 'QUERY_TOO_BROAD');
    const narrow = await call('GET', '/api/v1/file?scope=shared&name=photo-1&pageSize=100', reader.token);
    assert.equal(narrow.status, 200, narrow.text);
    assert.equal(narrow.body.docs.length, 8); // photo-1 and photo-10 … photo-16
  });

  it('keeps the customData and name indexes exact through create, PATCH, copy, move, trash and restore', async () => {
    const owner: Account = await server.client.signup();
    const ids = async (query: string) => {
      const response = await call('GET', `/api/v1/file?${query}&pageSize=100`, owner.token);
      assert.equal(response.status, 200, response.text);
      return (response.body.docs as { _id: string }[]).map((doc) => doc._id).sort();
    };
    const requested = await call('POST', '/api/v1/file', owner.token, {
      filePath: 'case/intake-form.txt',
      customData: { caseNo: 'C-17', priority: 2 },
    });
    assert.equal(requested.status, 200, requested.text);
    const id = requested.body.fileId as string;
    assert.deepEqual(await ids('customData.caseNo=C-17'), [id]);
    assert.deepEqual(await ids('customData.priority=2'), [id]);
    const patched = await call('PATCH', `/api/v1/file/${id}`, owner.token, {
      customData: { caseNo: 'C-18' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await ids('customData.caseNo=C-17'), []);
    assert.deepEqual(await ids('customData.priority=2'), []);
    assert.deepEqual(await ids('customData.caseNo=C-18'), [id]);
    const verified = await server.client.uploadFile(owner.token, 'case/evidence.txt', 'bytes');
    await call('PATCH', `/api/v1/file/${verified._id}`, owner.token, { customData: { caseNo: 'C-18' } });
    const copy = await call('POST', `/api/v1/file/${verified._id}/copy`, owner.token, {
      filePath: 'copies/evidence-copy.txt',
    });
    assert.equal(copy.status, 200, copy.text);
    const copyHasData = (copy.body.customData as { caseNo?: string } | null)?.caseNo === 'C-18';
    assert.deepEqual(
      await ids('customData.caseNo=C-18'),
      [id, verified._id, ...(copyHasData ? [copy.body._id] : [])].sort(),
    );
    assert.deepEqual(await ids('name=evidence-copy'), [copy.body._id]);
    const moved = await call('POST', `/api/v1/file/${copy.body._id}/move`, owner.token, {
      filePath: 'copies/renamed.txt',
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await ids('name=evidence-copy'), []);
    assert.deepEqual(await ids('name=renamed'), [copy.body._id]);
    assert.equal((await call('DELETE', `/api/v1/file/${verified._id}`, owner.token)).status, 204);
    assert.deepEqual(await ids('name=evidence'), []);
    const restored = await call('POST', `/api/v1/trash/${verified._id}/restore`, owner.token, {});
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(await ids('name=evidence'), [verified._id]);
    assert.ok((await ids('customData.caseNo=C-18')).includes(verified._id));
  });
});
