import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAdmissionReceiver } from '../support/admission-receiver.ts';
import { type Clamd, clamdMissing, eicarBytes, eicarSignature, startClamd } from '../support/clamd.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';

/**
 * Issue 42, no side door: `coffer import` turns exported bytes into readable files, so they pass
 * the scanner and the admission hook as uploads do. A refused file is imported quarantined
 * (451 FILE_QUARANTINED to everyone) and reported per file.
 */
describe('coffer import passes imported bytes through the scan and the admission hook', {
  skip: currentStackName() === 'pg-s3' && 'the embedded target: runs in the embedded pass',
}, () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let work: string;
  let source: CofferProcess | undefined;
  let target: CofferProcess | undefined;
  let clamd: Clamd | undefined;
  let receiver: Awaited<ReturnType<typeof startAdmissionReceiver>>;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'coffer-import-gate-'));
    receiver = await startAdmissionReceiver(secret, async (call) => ({
      status: 200,
      body: JSON.stringify(
        call.payload.data.filePath.startsWith('bad/')
          ? { allow: false, reason: 'not here' }
          : { allow: true },
      ),
    }));
    if (!clamdMissing) clamd = await startClamd();
  });
  after(async () => {
    await source?.stop();
    await target?.stop();
    await receiver?.close();
    await clamd?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a file the hook refuses and (with a clamd) one the scanner finds are quarantined and reported; the others are served', async () => {
    // Its own data dir: stopping the server keeps it, to export from.
    source = await startCofferProcess({ dataDir: await mkdtemp(path.join(work, 'source-')) });
    const { client } = source;
    const user = await client.signup();
    const good = await client.uploadFile(user.token, 'good/a.txt', 'fine');
    const bad = await client.uploadFile(user.token, 'bad/b.txt', 'refused by the hook');
    // The source server scans nothing: EICAR is stored as any bytes are.
    const infected = clamd ? await client.uploadFile(user.token, 'good/eicar.txt', eicarBytes()) : undefined;
    const { dataDir, env } = source;
    const cli = (args: string[]) => runCli([...args, '--data-dir', dataDir, '--json'], env);
    const set = await cli(['project', 'set', 'default', `admissionUrl=${receiver.url}`]);
    assert.equal(set.code, 0, set.stderr);
    const setSecret = await cli(['project', 'set', 'default', `admissionSecret=${secret}`]);
    assert.equal(setSecret.code, 0, setSecret.stderr);
    assert.ok(!setSecret.stdout.includes(secret), 'project set prints the secret as (set)');
    await source.stop();
    source = undefined;
    const exportDir = path.join(work, 'export');
    const exportRun = await cli(['export', '--out', exportDir]);
    assert.equal(exportRun.code, 0, exportRun.stderr);

    const targetDir = path.join(work, 'target');
    const gateEnv: Record<string, string> = {
      COFFER_WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(clamd && { COFFER_SCAN_URL: clamd.url, COFFER_SCAN_MAX_BYTES: String(clamd.maxBytes) }),
    };
    const imported = await runCli(['import', '--in', exportDir, '--data-dir', targetDir, '--json'], gateEnv);
    assert.equal(imported.code, 0, imported.stderr);
    const refused = JSON.parse(imported.stdout).refused as Array<{ fileId: string; reason: string }>;
    const byId = new Map(refused.map((entry) => [entry.fileId, entry.reason]));
    assert.equal(byId.get(bad._id), 'admission: not here');
    if (infected) assert.ok(byId.get(infected._id)?.startsWith(eicarSignature), imported.stdout);
    assert.equal(byId.has(good._id), false);
    assert.ok(receiver.calls.some((call) => call.payload.data.fileId === bad._id));

    // The export brought the default project's app credentials: the same file names them.
    await cp(path.join(dataDir, 'default-project.json'), path.join(targetDir, 'default-project.json'));
    target = await startCofferProcess({ dataDir: targetDir, env: gateEnv });
    const login = await target.client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.status, 200, login.text);
    const { token } = login.body;
    const read = (id: string) => target!.client.call('GET', `/api/v1/file/${id}`, { token });
    assert.equal((await read(good._id)).status, 200);
    const quarantined = await read(bad._id);
    assert.equal(quarantined.status, 451, quarantined.text);
    assert.equal(quarantined.body.code, 'FILE_QUARANTINED');
    if (infected) assert.equal((await read(infected._id)).status, 451);
  });
});
