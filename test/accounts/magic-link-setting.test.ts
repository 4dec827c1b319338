import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

/**
 * Issue 43 item 6: sign-in by link needs the app's page, so `magicLink=true` without
 * accountLinkUrl is refused with the reason, by `coffer project set` and the console's settings API.
 */
describe('magicLink needs accountLinkUrl', () => {
  let coffer: CofferProcess;
  let consoleApi: ConsoleCall;
  const cli = (...args: string[]) => runCli([...args, '--data-dir', coffer.dataDir], coffer.env);
  before(async () => {
    coffer = await startCofferProcess();
    consoleApi = await signInToConsole(coffer);
  });
  after(() => coffer?.stop());

  it('coffer project set refuses magicLink=true alone, naming accountLinkUrl; with it in the same change, takes both', async () => {
    const refused = await cli('project', 'set', 'default', 'magicLink=true');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /magicLink=true needs accountLinkUrl/);
    const origin = await cli('project', 'origin', 'add', 'default', 'https://app.example');
    assert.equal(origin.code, 0, origin.stderr);
    const taken = await cli(
      'project',
      'set',
      'default',
      'magicLink=true',
      'accountLinkUrl=https://app.example/auth/{purpose}',
    );
    assert.equal(taken.code, 0, taken.stderr);
    // Taking the page away while the link sign-in is on is refused alike.
    const unset = await cli('project', 'set', 'default', 'accountLinkUrl=');
    assert.notEqual(unset.code, 0);
    assert.match(unset.stderr, /magicLink=true needs accountLinkUrl/);
    assert.equal((await cli('project', 'set', 'default', 'magicLink=false', 'accountLinkUrl=')).code, 0);
  });

  it("the console's settings API answers 400 VALIDATION_FAILED with the reason, which the page shows", async () => {
    const projects = await consoleApi('GET', '/projects');
    const project = projects.body.projects.find((each: { name: string }) => each.name === 'default');
    const refused = await consoleApi('PATCH', `/projects/${project.id}/settings`, { magicLink: true });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'VALIDATION_FAILED');
    assert.match(refused.body.message, /magicLink=true needs accountLinkUrl/);
  });
});
