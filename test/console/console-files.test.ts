import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// A project's files through the console API, checked through the public API of their owner.
describe('console: files', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;
  let files: string;
  let owner: { token: string; userId: string };
  const ids: Record<string, string> = {};

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
    files = `/projects/${coffer.credentials.projectId}/files`;
    owner = await coffer.client.signup();
    const other = await coffer.client.signup();
    for (const path of ['docs/b.txt', 'docs/a.txt', 'photos/c.txt', 'docs/sub/d.txt'])
      ids[path] = (await coffer.client.uploadFile(owner.token, path, `content of ${path}`))._id;
    ids.other = (await coffer.client.uploadFile(other.token, 'docs/a.txt', 'another user’s'))._id;
  });
  after(() => coffer.stop());

  it('browses by path a page at a time, by owner and prefix', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = await call('GET', `${files}?limit=2&owner=${owner.userId}${query}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.files.map((file: { filePath: string }) => file.filePath));
      cursor = page.body.next;
    } while (cursor !== null);
    assert.deepEqual(seen, ['docs/a.txt', 'docs/b.txt', 'docs/sub/d.txt', 'photos/c.txt']);
    const underDocs = await call('GET', `${files}?prefix=docs/`);
    assert.deepEqual(
      underDocs.body.files.map((file: { _id: string }) => file._id).sort(),
      [ids['docs/a.txt'], ids.other, ids['docs/b.txt'], ids['docs/sub/d.txt']].sort(),
    );
    assert.equal((await call('GET', `${files}?cursor=not-a-cursor`)).status, 400);
  });

  it('shows a record, shares and unshares it, revokes its links, deletes it', async () => {
    const id = ids['docs/b.txt']!;
    const shown = await call('GET', `${files}/${id}`);
    assert.equal(shown.body.file.filePath, 'docs/b.txt');
    const shared = await call('POST', `${files}/${id}/shares`, { role: 'reviewers' });
    assert.equal(shared.status, 200);
    assert.deepEqual(shared.body.file.acl.at(-1), { scope: 'role', identifier: 'reviewers' });
    const unshared = await call('DELETE', `${files}/${id}/shares`, { role: 'reviewers' });
    assert.ok(
      !unshared.body.file.acl.some((entry: { identifier: string }) => entry.identifier === 'reviewers'),
    );
    assert.equal((await call('POST', `${files}/${id}/shares`, { role: 'x', userId: 'y' })).status, 400);

    const link = (await coffer.client.call('GET', `/api/v1/file/${id}`, { token: owner.token })).body
      .url as string;
    assert.equal((await fetch(link)).status, 200);
    assert.equal((await call('POST', `${files}/${id}/revoke-links`)).status, 204);
    // Download links go through the gateway on S3 too (presigned ones are a project's choice).
    assert.equal((await fetch(link)).status, 403);

    assert.equal((await call('DELETE', `${files}/${id}`)).status, 204);
    assert.equal((await call('GET', `${files}/${id}`)).status, 404);
    assert.equal((await coffer.client.call('GET', `/api/v1/file/${id}`, { token: owner.token })).status, 404);
    const elsewhere = await call('GET', `/projects/no-such-project/files/${ids['docs/a.txt']}`);
    assert.equal(elsewhere.status, 404);
  });
});
