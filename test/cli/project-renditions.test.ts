import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { jpegWithExif } from '../support/test-images.ts';

/** Issue 21 through `serve` and the CLI: presets set by `project set`, summaries made in the background. */
describe('coffer project set renditions.<name>, and image summaries in serve', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);

  it('a preset set by the CLI names a rendition; serve summarizes a verified image by itself', async () => {
    const created = await cli('project', 'create', 'photos', '--json');
    assert.equal(created.code, 0, created.stderr);
    const client = new ApiClient(coffer.baseUrl, JSON.parse(created.stdout));
    const set = await cli('project', 'set', 'photos', 'renditions.thumb=64x64,cover,webp,q70', '--json');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout).settings.renditionPresets, { thumb: '64x64-cover-webp-q70' });
    const refused = await cli('project', 'set', 'photos', 'renditions.thumb=64x64,sepia');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /"sepia" is none of resize/);

    const { token } = await client.signup();
    const file = await client.uploadFile(token, 'cat.jpg', await jpegWithExif(), {
      contentType: 'image/jpeg',
    });
    // The summary comes from serve's background work, a moment after verify.
    const deadline = Date.now() + 30_000;
    let meta: { width?: number; height?: number; placeholder?: string } = {};
    while (!meta.placeholder) {
      assert.ok(Date.now() < deadline, `no summary yet: ${JSON.stringify(meta)}`);
      await delay(100);
      meta = (await client.call('GET', `/api/v1/file/${file._id}`, { token })).body.meta;
    }
    assert.deepEqual([meta.width, meta.height], [200, 300]);

    // Settings are cached until the access epoch moves: the preset may take a moment to be seen.
    let answer = await client.call('GET', `/api/v1/file/${file._id}?rendition=thumb`, { token });
    while (answer.status !== 200) {
      assert.ok(Date.now() < deadline, answer.text);
      await delay(100);
      answer = await client.call('GET', `/api/v1/file/${file._id}?rendition=thumb`, { token });
    }
    const rendition = await fetch(answer.body.url);
    assert.equal(rendition.headers.get('content-type'), 'image/webp');
    const rendered = await sharp(Buffer.from(await rendition.arrayBuffer())).metadata();
    assert.deepEqual([rendered.width, rendered.height], [64, 64]);

    const removed = await cli('project', 'set', 'photos', 'renditions.thumb=', '--json');
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout).settings.renditionPresets, {});
  });
});
