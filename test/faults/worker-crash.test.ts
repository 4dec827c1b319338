import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { HttpLoad } from '../support/http-load.ts';
import { currentStackName } from '../support/test-stack.ts';

const serving = /"workerPid":(\d+),"msg":"worker \d+ serving"/;

/** `coffer serve` runs its server in a worker under a supervising primary, whatever the worker count. */
describe(`a worker killed under load (${currentStackName()} stack)`, () => {
  let coffer: CofferProcess;
  before(async () => {
    // Connections wait in the primary while the worker restarts: let them, however busy the machine.
    coffer = await startCofferProcess({ env: { COFFER_HEADERS_TIMEOUT_SECONDS: '300' } });
  });
  after(() => coffer?.stop());

  it('costs only the requests in flight: a new worker takes over at once, the primary stays', async () => {
    const owner = await coffer.client.signup();
    const file = await coffer.client.uploadFile(owner.token, 'steady.txt', 'steady bytes');
    const headers = {
      'sb-app-id': coffer.credentials.appId,
      'sb-app-secret': coffer.credentials.appSecret,
      authorization: `Bearer ${owner.token}`,
    };
    const payload = Buffer.alloc(256 * 1024, 7);
    // Reads on the control plane and 256 KiB uploads on the data plane: many requests in flight.
    const load = new HttpLoad(24, async (call, loop) => {
      if (loop % 3 > 0) {
        await call('read record', `${coffer.baseUrl}/api/v1/file/${file._id}`, { headers });
        return;
      }
      const requested = await call('request upload', `${coffer.baseUrl}/api/v1/file`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ filePath: `load/${loop}-${performance.now()}.bin` }),
      });
      if (requested?.status !== 200) return;
      await call('upload', requested.json.putFileUrl, { method: 'PUT', body: payload });
    });
    try {
      await load.until((outcomes) => outcomes.filter((o) => o.status === 200).length >= 100, '100 answers');
      const firstPid = Number(serving.exec(coffer.output())![1]);
      const mark = coffer.output().length;
      const killedAt = performance.now();
      process.kill(firstPid, 'SIGKILL');
      await coffer.waitForOutput(new RegExp(`worker ${firstPid} exited \\(signal SIGKILL\\)`), mark);
      const exitSeenAt = performance.now();
      const secondPid = Number((await coffer.waitForOutput(serving, mark))[1]);
      assert.notEqual(secondPid, firstPid);
      await load.until(
        (outcomes) => outcomes.filter((o) => o.startedAt > exitSeenAt && o.status === 200).length >= 100,
        '100 answers after the replacement',
      );
      const outcomes = await load.stop();

      const inFlightAtKill = outcomes.filter((o) => o.startedAt < killedAt && o.endedAt > killedAt);
      assert.ok(inFlightAtKill.length > 0, 'the kill came while requests were in flight');
      const failed = outcomes.filter((o) => o.status !== 200);
      // The worker's death was seen only after it happened: requests sent to it until then
      // were in flight to a dying process. Every request sent after that was served.
      assert.deepEqual(
        failed.filter((o) => o.startedAt >= exitSeenAt),
        [],
      );
      assert.deepEqual(
        failed.filter((o) => o.error === undefined),
        [],
        'a failed request lost its connection; none got an error status',
      );
    } finally {
      await load.stop();
    }
    process.kill(coffer.pid, 0); // throws if the primary is gone
    assert.equal((coffer.output().match(/Coffer ready at/g) ?? []).length, 1, 'nobody restarted the service');
    assert.equal((await fetch(`${coffer.baseUrl}/readyz`)).status, 200);
  });
});
