import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { findErrorShapeProblem } from '../support/error-shape.ts';
import { createFuzzFixtures } from '../support/fuzz-fixture.ts';
import { chooseSeed, toRounds, toTimeoutMs } from '../support/fuzz-settings.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type RawCase, type RawTargets, rawCase } from '../support/raw-cases.ts';
import { exchangeRaw, parseResponses, type RawExchange } from '../support/raw-http.ts';
import { waitForConnections, waitForEmptyDirectory } from '../support/resource-usage.ts';
import { currentStackName } from '../support/test-stack.ts';

// A few thousand byte-level cases per run. Pass: the server answers in the error shape or
// closes the connection, never answers 5xx, never crashes, and serves a normal request after.

const inProcessCount = toRounds(3000);
const processCount = toRounds(600);

type RawResult = {
  failures: string[];
  failureCount: number;
  families: Record<string, number>;
  /** Statuses of the first answers by family, `closed` when the server closed without one. */
  statuses: Record<string, number>;
};

function judge(c: RawCase, { received, ending }: RawExchange): string | undefined {
  if (ending === 'timed out')
    return 'the server held the connection open after the client had sent everything';
  let responses: ReturnType<typeof parseResponses>;
  try {
    responses = parseResponses(received, c.methods);
  } catch (error) {
    return `the answer is not HTTP: ${(error as Error).message}`;
  }
  for (const [index, response] of responses.entries()) {
    const problem = findErrorShapeProblem({
      status: response.status,
      contentType: response.headers['content-type'],
      body: response.body,
      method: c.methods[index] ?? 'GET',
    });
    if (problem) return problem;
  }
  if (c.allAnswered && responses.length !== c.methods.length)
    return `${responses.length} answers to ${c.methods.length} pipelined requests`;
  return undefined;
}

/** Whether the bytes hold an answer to each of the case's requests. */
function answersAll(c: RawCase): ((received: Buffer) => boolean) | undefined {
  if (!c.allAnswered) return undefined;
  return (received) => {
    try {
      return parseResponses(received, c.methods).length >= c.methods.length;
    } catch {
      return false; // not complete yet
    }
  };
}

async function runRawCampaign(options: {
  baseUrl: string;
  targets: RawTargets;
  seed: number;
  count: number;
}): Promise<RawResult> {
  const { hostname, port } = new URL(options.baseUrl);
  const cases = fc.sample(rawCase(options.targets), { seed: options.seed, numRuns: options.count });
  const result: RawResult = { failures: [], failureCount: 0, families: {}, statuses: {} };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const c = cases[index]!;
      result.families[c.family] = (result.families[c.family] ?? 0) + 1;
      const exchange = await exchangeRaw({ host: hostname, port: Number(port) }, c.chunks, {
        isComplete: answersAll(c),
      });
      const status = /^HTTP\/1\.1 (\d{3})/.exec(exchange.received.toString('latin1', 0, 12))?.[1] ?? 'closed';
      const key = `${c.family} ${status}`;
      result.statuses[key] = (result.statuses[key] ?? 0) + 1;
      const problem = judge(c, exchange);
      if (!problem) continue;
      result.failureCount += 1;
      if (result.failures.length < 15) {
        const sent = JSON.stringify(Buffer.concat(c.chunks).subarray(0, 400).toString('latin1'));
        const answer = JSON.stringify(exchange.received.subarray(0, 400).toString('latin1'));
        result.failures.push(
          `${problem}\n  seed ${options.seed}, case ${index}: ${c.family} / ${c.name}\n  sent ${sent}\n  got ${answer}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return result;
}

function assertClean(result: RawResult): void {
  console.log(`# families ${JSON.stringify(result.families)}`);
  console.log(`# first answers ${JSON.stringify(result.statuses)}`);
  assert.equal(
    result.failureCount,
    0,
    `${result.failureCount} cases broke the rules; the first ones:\n${result.failures.join('\n')}`,
  );
}

/** A normal request still works: the probe and an authenticated call. */
async function assertServes(baseUrl: string, targets: RawTargets): Promise<void> {
  assert.equal((await fetch(`${baseUrl}/healthz`)).status, 200);
  const profile = await fetch(`${baseUrl}/api/v1/user`, {
    headers: {
      'sb-app-id': targets.appId,
      'sb-app-secret': targets.appSecret,
      authorization: `Bearer ${targets.token}`,
    },
  });
  assert.equal(profile.status, 200);
}

/** Partial uploads leave nothing behind in the store's temp directory (embedded stack). */
async function waitForEmptyTempDir(dataDir: string): Promise<void> {
  if (currentStackName() === 'embedded') await waitForEmptyDirectory(path.join(dataDir, 'blobs', '.tmp'));
}

describe('raw-socket cases', { timeout: toTimeoutMs(1_200_000) }, () => {
  describe('against an in-process server', () => {
    let server: TestServer;
    let targets: RawTargets;
    before(async () => {
      // Short timeouts through settings: a case that leaves a request unfinished costs little.
      server = await startTestServer(
        {},
        { COFFER_HEADERS_TIMEOUT_SECONDS: '2', COFFER_REQUEST_TIMEOUT_SECONDS: '5' },
      );
      const client = await server.createProject('raw', ['https://raw.example']);
      const fixture = await createFuzzFixtures(client, { allowedOrigin: 'https://raw.example' })();
      targets = { ...fixture, host: new URL(server.baseUrl).host };
    });
    after(() => server.stop());

    it(`${inProcessCount} cases: answered in the error shape or closed, never 5xx; normal service after`, {
      timeout: toTimeoutMs(600_000),
    }, async () => {
      const result = await runRawCampaign({
        baseUrl: server.baseUrl,
        targets,
        seed: chooseSeed('raw sockets, in-process'),
        count: inProcessCount,
      });
      assertClean(result);
      await assertServes(server.baseUrl, targets);
      await waitForConnections(server);
      await waitForEmptyTempDir(server.dataDir);
    });
  });

  describe('against a coffer serve process', () => {
    let server: CofferProcess;
    let targets: RawTargets;
    before(async () => {
      server = await startCofferProcess({
        env: { COFFER_HEADERS_TIMEOUT_SECONDS: '2', COFFER_REQUEST_TIMEOUT_SECONDS: '5' },
      });
      const fixture = await createFuzzFixtures(server.client, { allowedOrigin: 'https://raw.example' })();
      targets = { ...fixture, host: new URL(server.baseUrl).host };
    });
    after(() => server.stop());

    it(`${processCount} cases: the process never falls, and serves normally after`, {
      timeout: toTimeoutMs(600_000),
    }, async () => {
      const result = await runRawCampaign({
        baseUrl: server.baseUrl,
        targets,
        seed: chooseSeed('raw sockets, coffer serve'),
        count: processCount,
      });
      assertClean(result);
      await assertServes(server.baseUrl, targets);
      assert.doesNotMatch(server.output(), /exited|uncaught|unhandled|FATAL/i);
      await waitForEmptyTempDir(server.dataDir);
    });
  });
});
