import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scanProject } from '../../src/cli/scan-command.ts';
import { loadConfig } from '../../src/config/config.ts';
import { type Clamd, clamdMissing, clamdScanner, eicarBytes, startClamd } from '../support/clamd.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 42, item 2, in the console and the CLI: the project's quarantined files are listed,
 * their bytes (preview, download, thumbnail) refused with 451, and an operator releases one.
 * `coffer scan` without a scanner says what to set. The scan runs beside the server, on its
 * stores, as the command does.
 */
describe(`quarantine in the console and the CLI (${currentStackName()} stack)`, {
  skip: clamdMissing ?? false,
}, () => {
  let coffer: CofferProcess;
  let clamd: Clamd;
  let consoleApi: ConsoleCall;
  before(async () => {
    clamd = await startClamd();
    coffer = await startCofferProcess();
    consoleApi = await signInToConsole(coffer);
  });
  after(async () => {
    await coffer?.stop();
    await clamd?.close();
  });

  it('lists quarantined files, refuses their content and thumbnail, and releases one', async () => {
    const { projectId } = coffer.credentials;
    const owner = await coffer.client.signup();
    const infected = await coffer.client.uploadFile(owner.token, 'eicar.com', eicarBytes());
    const clean = await coffer.client.uploadFile(owner.token, 'clean.txt', 'clean');
    const base = `/projects/${projectId}`;
    assert.deepEqual((await consoleApi('GET', `${base}/quarantine`)).body.files, []);

    const report = await scanProject(loadConfig({ 'data-dir': coffer.dataDir }, coffer.env), {
      project: 'default',
      scanner: clamdScanner(clamd),
      progress: { phase() {}, advance() {}, finish() {} },
    });
    assert.deepEqual(
      report.infected.map((hit) => hit.fileId),
      [infected._id],
    );

    const listed = await consoleApi('GET', `${base}/quarantine`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.files.map((file: { _id: string }) => file._id),
      [infected._id],
    );
    assert.match(listed.body.files[0].quarantine.signature, /^Coffer\.Test\.EICAR/);
    assert.equal(listed.body.hasMore, false);
    for (const path of [`/files/${infected._id}/content`, `/files/${infected._id}/thumbnail`]) {
      const refused = await consoleApi('GET', `${base}${path}`);
      assert.equal(refused.status, 451, path);
      assert.equal(refused.body.code, 'FILE_QUARANTINED');
    }
    assert.equal((await consoleApi.raw(`${base}/files/${clean._id}/content`)).status, 200);

    const released = await consoleApi('POST', `${base}/files/${infected._id}/quarantine/release`);
    assert.equal(released.status, 200);
    assert.equal(released.body.file.quarantine, undefined);
    assert.deepEqual((await consoleApi('GET', `${base}/quarantine`)).body.files, []);
    const content = await consoleApi.raw(`${base}/files/${infected._id}/content?download=1`);
    assert.equal(content.status, 200);
    assert.deepEqual(Buffer.from(await content.arrayBuffer()), eicarBytes());
  });

  it('coffer scan without COFFER_SCAN_URL says what to set (exit 2)', async () => {
    const run = await runCli(['scan', 'default', '--data-dir', coffer.dataDir], coffer.env);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /COFFER_SCAN_URL/);
    const badSince = await runCli(['scan', 'default', '--since', 'yesterday', '--data-dir', coffer.dataDir], {
      ...coffer.env,
      COFFER_SCAN_URL: clamd.url,
    });
    assert.equal(badSince.code, 2, badSince.stderr);
    assert.match(badSince.stderr, /--since/);
  });
});
