import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { makeCertificate } from '../support/tls-fixtures.ts';

describe('links on a non-loopback bind without --public-url', {
  skip: currentStackName() === 'pg-s3' && 'stack-independent (runs in the embedded pass)',
}, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coffer-public-url-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('with TLS on 0.0.0.0: built on the certificate’s name, not 127.0.0.1, and the log says to set --public-url', async () => {
    const { cert, key } = await makeCertificate(dir, 'server', { dnsName: 'files.example.test' });
    const coffer = await startCofferProcess({
      args: ['--host', '0.0.0.0', '--tls-cert', cert, '--tls-key', key],
    });
    try {
      assert.match(coffer.baseUrl, /^https:\/\/files\.example\.test:\d+$/);
      const warnings = coffer
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":40'));
      assert.equal(warnings.length, 1, coffer.output());
      assert.match(
        warnings[0]!,
        /--host 0\.0\.0\.0 without --public-url: .*files\.example\.test.*set --public-url/,
      );
    } finally {
      await coffer.stop();
    }
  });
});
