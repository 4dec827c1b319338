import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { prepareTestStack, type TestStack } from '../support/test-stack.ts';

describe('the first start says where everything is, in plain words, at any log level', () => {
  let dataDir: string;
  let stack: TestStack;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-first-start-'));
    stack = await prepareTestStack();
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await stack.cleanup();
  });

  it('as one JSON line when stdout is no terminal (here at --log-level warn), never with the secret', async () => {
    const first = await startCofferProcess({ dataDir, stack, args: ['--log-level', 'warn'] });
    let output: string;
    try {
      output = first.output();
      assert.ok(first.credentials.appSecret);
      assert.doesNotMatch(output, new RegExp(first.credentials.appSecret));
    } finally {
      await first.stop();
    }
    const line = output.split('\n').find((candidate) => candidate.includes('"docsUrl"'));
    assert.ok(line, output);
    const guide = JSON.parse(line);
    assert.equal(guide.level, 30);
    assert.equal(guide.url, first.baseUrl);
    assert.equal(guide.docsUrl, `${first.baseUrl}/docs`);
    assert.equal(guide.credentialsFile, path.join(dataDir, 'default-project.json'));
    assert.equal(guide.next, `npx coffer project show default --data-dir ${dataDir}`);
    assert.match(guide.msg, /^Coffer is ready at http:\/\/127\.0\.0\.1:\d+; API reference at /);
    // warn level: the info lines (the ready line, the access log) stayed out.
    assert.doesNotMatch(output, /Coffer ready at|"msg":"request"/);

    const second = await startCofferProcess({ dataDir, stack });
    try {
      assert.doesNotMatch(second.output(), /docsUrl|Coffer is ready at/);
    } finally {
      await second.stop();
    }
  });

  it('as readable lines with COFFER_LOG_FORMAT=pretty (what a terminal gets by default)', async () => {
    // A first start: fresh stores too (on PostgreSQL, the shared database already has `default`).
    const freshDir = await mkdtemp(path.join(tmpdir(), 'coffer-first-start-'));
    const coffer = await startCofferProcess({ dataDir: freshDir, env: { COFFER_LOG_FORMAT: 'pretty' } });
    try {
      const response = await fetch(`${coffer.baseUrl}/healthz`);
      assert.equal(response.status, 200);
      const output = coffer.output();
      assert.match(output, new RegExp(`^Coffer is ready at ${coffer.baseUrl}$`, 'm'));
      assert.match(output, new RegExp(`^ {2}API reference: +${coffer.baseUrl}/docs$`, 'm'));
      assert.match(output, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Coffer ready at /m);
      assert.doesNotMatch(output, /^\{"level"/m, 'no JSON lines');
    } finally {
      await coffer.stop();
      await rm(freshDir, { recursive: true, force: true });
    }
  });
});
