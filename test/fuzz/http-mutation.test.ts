import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { type CampaignResult, runFuzzCampaign } from '../support/fuzz-campaign.ts';
import { createFuzzFixtures, type FuzzFixture } from '../support/fuzz-fixture.ts';
import { chooseSeed, toRounds, toTimeoutMs } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { measureResources, type ResourceUsage, waitForConnections } from '../support/resource-usage.ts';

// 10,000 mutated requests per `npm test` run over every endpoint of both planes and the probes
// (100,000 in `npm run test:long`; each run draws a new seed, so runs add up): most against one
// in-process server (whose memory and handles the test can watch), a share against a real
// `coffer serve`. Pass: no 5xx, no crash, every refusal in the error shape.

const allowedOrigin = 'https://app.fuzz.example';
// At least 4,000 in process: the leak check's rounds (2,000 to warm, then two of the rest) need room.
const inProcessCount = Math.max(toRounds(8_000), 4_000);
const processCount = toRounds(2_000);

// Half the fuzzed logins guess a wrong password for the fixture's account: under the default
// limits a long enough run locks that account for the hour, and the next fixture cannot log
// in (429). The throttle has its own tests (test/api/rate-limits.test.ts); here it is lifted.
const unthrottledLogins = {
  COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '1000000',
  COFFER_LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '1000000',
  COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: '1000000',
};

function assertClean(result: CampaignResult, expected: number): void {
  console.log(`# statuses ${JSON.stringify(result.statuses)}`);
  console.log(`# endpoints ${JSON.stringify(result.templates)}`);
  console.log(`# slowest ${JSON.stringify(result.slowest)}`);
  assert.equal(result.sent, expected);
  assert.equal(
    result.failureCount,
    0,
    `${result.failureCount} of ${result.sent} answers broke the rules; the first ones:\n${result.failures.join('\n')}`,
  );
}

describe('mutated HTTP requests', { timeout: toTimeoutMs(1_800_000) }, () => {
  describe('against an in-process server', () => {
    let server: TestServer;
    let prepareFixture: () => Promise<FuzzFixture>;
    before(async () => {
      server = await startTestServer({}, unthrottledLogins);
      const client = await server.createProject('fuzz', [allowedOrigin]);
      prepareFixture = createFuzzFixtures(client, { other: server.client, allowedOrigin });
    });
    after(() => server.stop());

    it(`${inProcessCount} requests: no 5xx, every refusal in the error shape, memory and handles back near their baseline`, {
      timeout: toTimeoutMs(900_000),
    }, async () => {
      const seed = chooseSeed('mutated HTTP, in-process');
      // Three rounds: the first warms caches, JIT and pools (the baseline is taken after it);
      // the last must not grow what the second left.
      const rounds = [2000, Math.floor((inProcessCount - 2000) / 2), Math.ceil((inProcessCount - 2000) / 2)];
      const usage: ResourceUsage[] = [];
      for (const [round, count] of rounds.entries()) {
        const result = await runFuzzCampaign({
          baseUrl: server.baseUrl,
          prepareFixture,
          seed: seed + round * 1000,
          count,
          connections: 16,
        });
        assertClean(result, count);
        await waitForConnections(server);
        usage.push(measureResources());
      }
      assertNearBaseline(usage[0]!, usage[1]!, usage[2]!);
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    });
  });

  describe('against a coffer serve process', () => {
    let server: CofferProcess;
    let prepareFixture: () => Promise<FuzzFixture>;
    before(async () => {
      server = await startCofferProcess({ env: unthrottledLogins });
      const created = await runCli(
        ['project', 'create', 'fuzz', '--origin', allowedOrigin, '--json', '--data-dir', server.dataDir],
        server.env,
      );
      assert.equal(created.code, 0, created.stderr);
      const client = new ApiClient(server.baseUrl, JSON.parse(created.stdout));
      prepareFixture = createFuzzFixtures(client, { other: server.client, allowedOrigin });
    });
    after(() => server.stop());

    it(`${processCount} requests: no 5xx, every refusal in the error shape, the process never falls`, {
      timeout: toTimeoutMs(900_000),
    }, async () => {
      const seed = chooseSeed('mutated HTTP, coffer serve');
      const result = await runFuzzCampaign({
        baseUrl: server.baseUrl,
        prepareFixture,
        seed,
        count: processCount,
        connections: 16,
      });
      assertClean(result, processCount);
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      assert.doesNotMatch(server.output(), /exited|uncaught|unhandled|FATAL/i);
    });
  });
});

function assertNearBaseline(baseline: ResourceUsage, middle: ResourceUsage, end: ResourceUsage): void {
  console.log(`# resources: ${JSON.stringify({ baseline, middle, end })}`);
  const mebibyte = 1024 * 1024;
  // Generous bounds, which a leak of a fraction of each request's bytes still breaks. RSS
  // rarely shrinks once grown (the allocator keeps freed pages), so its check is that the last
  // round did not keep growing it.
  assert.ok(end.heapUsedBytes < baseline.heapUsedBytes + 32 * mebibyte, 'the heap grew');
  assert.ok(end.externalBytes < baseline.externalBytes + 32 * mebibyte, 'external memory grew');
  assert.ok(end.rssBytes < middle.rssBytes + 96 * mebibyte, 'RSS kept growing');
  // Sockets are counted on the server's side (it holds no connection now); the process's own
  // clients (a database pool, an S3 client) keep theirs as they see fit.
  for (const [kind, count] of Object.entries(end.handles).filter(([kind]) => kind !== 'TCPSocketWrap')) {
    assert.ok(
      count <= (baseline.handles[kind] ?? 0) + 2,
      `${kind} handles: ${baseline.handles[kind] ?? 0} → ${count}`,
    );
  }
  if (end.openFiles !== undefined && baseline.openFiles !== undefined)
    assert.ok(
      end.openFiles <= baseline.openFiles + 4,
      `open files: ${baseline.openFiles} → ${end.openFiles}`,
    );
}
