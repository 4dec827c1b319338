import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { currentStackName } from '../support/test-stack.ts';
import { useTwoNodes } from '../support/two-nodes.ts';

const skip = currentStackName() === 'pg-s3' ? false : 'needs shared stores: runs in the PostgreSQL + S3 pass';

/** Stateless nodes: two `coffer serve` processes sharing one PostgreSQL and one S3 store. */
describe('two nodes, one PostgreSQL, one S3 store', { skip }, () => {
  const nodes = useTwoNodes();

  it('requested on A, uploaded, verified and shared on B, downloaded with a link issued by A', async () => {
    const { nodeA, nodeB } = nodes;
    assert.deepEqual(nodeA.credentials, nodeB.credentials, 'both nodes see the one default project');
    const alice = await nodeA.client.signup('alice@example.com');
    const bob = await nodeB.client.signup('bob@example.com');
    const requested = await nodeA.client.call('POST', '/api/v1/file', {
      token: alice.token,
      body: { filePath: 'a/b.txt' },
    });
    assert.equal(requested.status, 200, requested.text);
    // The upload link names node A; send it to node B instead: the signing keys are shared.
    const putOnB = requested.body.putFileUrl.replace(nodeA.baseUrl, nodeB.baseUrl);
    assert.notEqual(putOnB, requested.body.putFileUrl);
    const put = await fetch(putOnB, {
      method: 'PUT',
      body: 'across nodes',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200);
    const verified = await nodeB.client.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token: alice.token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    const shared = await nodeB.client.call(
      'POST',
      `/api/v1/file/${requested.body.fileId}/acl/user/${bob.userId}`,
      { token: alice.token },
    );
    assert.equal(shared.status, 200);
    const link = await nodeA.client.call('GET', `/api/v1/file/${requested.body.fileId}`, {
      token: bob.token,
    });
    assert.equal(link.status, 200, link.text);
    const download = await fetch(link.body.url);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'across nodes');
  });
});
