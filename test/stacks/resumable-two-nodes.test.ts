import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { currentStackName } from '../support/test-stack.ts';
import { runTusUpload } from '../support/tus-upload.ts';
import { useTwoNodes } from '../support/two-nodes.ts';

const skip = currentStackName() === 'pg-s3' ? false : 'needs shared stores: runs in the PostgreSQL + S3 pass';
const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');
const chunk = (url: string, offset: number, body: Buffer) =>
  fetch(url, {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: body as BodyInit,
  });

/** Issue 20: a resumable upload across stateless nodes (one PostgreSQL, one S3 store). */
describe('resumable uploads on two nodes', { skip }, () => {
  const nodes = useTwoNodes();

  it('begun on A, resumed on B by a stock client: the file verifies with its SHA-256', async () => {
    const { nodeA, nodeB } = nodes;
    const { token } = await nodeA.client.signup();
    const content = randomBytes(11 * MiB + 5);
    const requested = await nodeA.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'nodes/resumed.bin', contentLength: content.length, resumable: true },
    });
    assert.equal(requested.status, 200, requested.text);
    const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
    // 6 MiB on A: one whole S3 part and a parked tail the other node must read back.
    assert.equal((await chunk(resumableUrl, 0, content.subarray(0, 6 * MiB))).status, 204);
    const onB = resumableUrl.replace(nodeA.baseUrl, nodeB.baseUrl);
    const head = await fetch(onB, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    assert.equal(head.headers.get('upload-offset'), String(6 * MiB));
    const rest = await runTusUpload(content, { uploadUrl: onB, chunkSize: 2 * MiB });
    assert.ok(rest.ok, rest.ok ? '' : String(rest.error));
    const verified = await nodeA.client.call('POST', `/api/v1/file/${fileId}/verify`, {
      token,
      body: { etag: rest.etag },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
  });

  it('PATCHes racing from both nodes at one offset: one writes, the other gets 409 or 423', async () => {
    const { nodeA, nodeB } = nodes;
    const { token } = await nodeB.client.signup();
    for (let round = 0; round < 4; round++) {
      const content = randomBytes(3 * MiB);
      const requested = await nodeA.client.call('POST', '/api/v1/file', {
        token,
        body: { filePath: `nodes/race-${round}.bin`, contentLength: content.length, resumable: true },
      });
      const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
      const onB = resumableUrl.replace(nodeA.baseUrl, nodeB.baseUrl);
      const answers = await Promise.all([chunk(resumableUrl, 0, content), chunk(onB, 0, content)]);
      const statuses = answers.map((answer) => answer.status).sort();
      assert.equal(statuses.filter((status) => status === 204).length, 1, `round ${round}: ${statuses}`);
      assert.ok(
        statuses.every((status) => [204, 409, 423].includes(status)),
        `round ${round}: ${statuses}`,
      );
      const etag = answers.find((answer) => answer.status === 204)?.headers.get('etag');
      const verified = await nodeB.client.call('POST', `/api/v1/file/${fileId}/verify`, {
        token,
        body: { etag },
      });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.meta.ChecksumSHA256, sha256(content));
    }
  });
});
