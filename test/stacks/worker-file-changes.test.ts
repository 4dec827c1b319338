import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'undici';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 44 item 1: a worker trusts a file record it checked less than 250 ms ago without reading
 * the database (repositories/files/file-view-cache.ts). A change made through one worker of
 * `serve --workers 2` is answered only once the other has dropped what it trusted
 * (supervisor/write-relay.ts), so a read through the other worker right after the answer is
 * refused. Each round warms the other worker's trust just before the change: without the relay,
 * its next read would be answered from the record it holds.
 *
 * The primary hands connections to its workers round robin, so two connections opened one after
 * the other are served by the two workers (each undici Client here is one keep-alive connection).
 */
describe(`a change through one worker is refused by its sibling at once (${currentStackName()} stack)`, () => {
  let coffer: CofferProcess;
  let first: Client;
  let second: Client;
  let owner: { token: string; userId: string };
  let reader: { token: string; userId: string };

  const call = async (via: Client, method: string, path: string, token: string, body?: unknown) => {
    const { credentials } = coffer.client;
    const response = await via.request({
      method: method as 'GET',
      path,
      headers: {
        'sb-app-id': credentials.appId,
        'sb-app-secret': credentials.appSecret,
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    const json = text ? JSON.parse(text) : {};
    return { status: response.statusCode, code: json.code as string | undefined, json };
  };
  const download = async (via: Client, link: string) => {
    const response = await via.request({ method: 'GET', path: link.slice(coffer.baseUrl.length) });
    const text = await response.body.text();
    return response.statusCode === 200 ? 200 : JSON.parse(text).code;
  };

  before(async () => {
    coffer = await startCofferProcess({ args: ['--workers', '2'] });
    owner = await coffer.client.signup();
    reader = await coffer.client.signup();
    first = new Client(coffer.baseUrl, { pipelining: 1, connections: 1 } as Client.Options);
    // A request on each before the next opens: the primary has handed the first one over.
    await call(first, 'GET', '/api/v1/file?pageSize=1', owner.token);
    second = new Client(coffer.baseUrl, { pipelining: 1 } as Client.Options);
    await call(second, 'GET', '/api/v1/file?pageSize=1', owner.token);
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await coffer?.stop();
  });

  it('a removed share, revoked links and a trashed file, each read through the other worker at once', async () => {
    const record = await coffer.client.uploadFile(owner.token, 'relayed.txt', 'relay me');
    const fileId = record._id as string;
    const share = `/api/v1/file/${fileId}/acl/user/${reader.userId}`;
    for (let round = 0; round < 5; round++) {
      assert.equal((await call(first, 'POST', share, owner.token)).status, 200);
      // The second worker checks the record now (trusted for 250 ms from here)…
      assert.equal((await call(second, 'GET', `/api/v1/file/${fileId}`, reader.token)).status, 200);
      // …the first removes the share, and the second refuses as soon as that is answered.
      assert.equal((await call(first, 'DELETE', share, owner.token)).status, 204);
      assert.equal((await call(second, 'GET', `/api/v1/file/${fileId}`, reader.token)).code, 'ACCESS_DENIED');
    }
    for (let round = 0; round < 5; round++) {
      const link = (await call(second, 'GET', `/api/v1/file/${fileId}`, owner.token)).json.url as string;
      assert.equal(await download(second, link), 200);
      const revoked = await call(first, 'POST', `/api/v1/file/${fileId}/links/revoke`, owner.token);
      assert.equal(revoked.status, 204);
      assert.equal(await download(second, link), 'LINK_REVOKED');
    }
    assert.equal((await call(second, 'GET', `/api/v1/file/${fileId}`, owner.token)).status, 200);
    assert.equal((await call(first, 'DELETE', `/api/v1/file/${fileId}`, owner.token)).status, 204);
    assert.equal((await call(second, 'GET', `/api/v1/file/${fileId}`, owner.token)).code, 'FILE_NOT_FOUND');
  });
});
