import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

describe('coffer project show | set (per-project settings), with a server running on the same data', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess();
  });
  after(() => coffer.stop());
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);

  it('show prints the project and its settings, never its secret or hash', async () => {
    const shown = await cli('project', 'show', 'default', '--json');
    assert.equal(shown.code, 0, shown.stderr);
    const project = JSON.parse(shown.stdout);
    assert.equal(project.name, 'default');
    assert.equal(project.appId, coffer.credentials.appId);
    assert.equal(project.settings.signup, 'open');
    // The setting admissionSecret is named, never shown (its value is null or "(set)").
    assert.doesNotMatch(shown.stdout, /(?<!admission)secret|hash/i);
    assert.doesNotMatch(shown.stdout, new RegExp(coffer.credentials.appSecret));
  });

  it('set applies every assignment, by project id or name, and name= restores the default', async () => {
    const set = await cli('project', 'set', 'default', 'signup=closed', 'maxFileSizeBytes=5MiB', '--json');
    assert.equal(set.code, 0, set.stderr);
    const { projectId, settings } = JSON.parse(set.stdout);
    assert.equal(settings.signup, 'closed');
    assert.equal(settings.maxFileSizeBytes, 5 * 1024 * 1024);
    const byId = await cli('project', 'set', projectId, 'signup=', '--json');
    assert.equal(byId.code, 0, byId.stderr);
    assert.equal(JSON.parse(byId.stdout).settings.signup, 'open');
    assert.equal(JSON.parse(byId.stdout).settings.maxFileSizeBytes, 5 * 1024 * 1024);
  });

  it('a wrong assignment exits 2 naming it, and changes nothing', async () => {
    const before = JSON.parse((await cli('project', 'show', 'default', '--json')).stdout).settings;
    for (const args of [['signup=closed', 'colour=blue'], ['signup=closed', 'userQuotaFiles=many'], []]) {
      const wrong = await cli('project', 'set', 'default', ...args, '--json');
      assert.equal(wrong.code, 2, `${args.join(' ')}: ${wrong.stderr}`);
      assert.equal(
        JSON.parse(wrong.stdout).code,
        args.length === 0 ? 'INVALID_INVOCATION' : 'VALIDATION_FAILED',
      );
    }
    const after = JSON.parse((await cli('project', 'show', 'default', '--json')).stdout).settings;
    assert.deepEqual(after, before);
    const unknown = await cli('project', 'show', 'no-such-project', '--json');
    assert.notEqual(unknown.code, 0);
  });
});
