import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { QuotaLimits } from '../../src/domain/files/storage-usage-repository.ts';
import { ApiClient, type ApiResponse } from '../support/api-client.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { currentStackName, prepareTestStack, type TestStack } from '../support/test-stack.ts';

/**
 * Where the quota races run: `coffer serve --workers 2` on the embedded stack (two processes
 * over one SQLite file), two nodes on one PostgreSQL and one S3 store on the pg-s3 stack.
 * Requests are spread over every process: each opens a fresh connection (round robin over the
 * workers) on a node chosen by the caller.
 */
export type QuotaRaceTarget = {
  /** Every node; each has its own process(es). */
  nodes: CofferProcess[];
  /** The console API of the first node: projects, settings, usage. */
  console: ConsoleCall;
  /** A new project with these quotas, set before anything read its settings. */
  createProject(quotas: QuotaLimits): Promise<QuotaRaceProject>;
};

export type QuotaRaceProject = {
  projectId: string;
  quotas: QuotaLimits;
  /** The project's API on each node, in the order of `nodes`. */
  clients: ApiClient[];
};

// A fresh connection per request: with --workers the primary hands each to the next worker.
export const freshConnection = { connection: 'close' };

export function useQuotaRaceTarget(): QuotaRaceTarget {
  const target = {} as QuotaRaceTarget;
  let stack: TestStack | undefined;
  let dataDir: string | undefined;
  let projects = 0;
  before(async () => {
    if (currentStackName() === 'embedded') {
      target.nodes = [await startCofferProcess({ args: ['--workers', '2'] })];
    } else {
      // Two stateless nodes sharing the stores and one data dir (the default project's file).
      stack = await prepareTestStack();
      dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-quota-nodes-'));
      const nodeA = await startCofferProcess({ stack, dataDir });
      target.nodes = [nodeA];
      target.nodes.push(await startCofferProcess({ stack, dataDir }));
    }
    target.console = await signInToConsole(target.nodes[0]!);
    target.createProject = async (quotas) => {
      const created = await target.console('POST', '/projects', { name: `quota-race-${++projects}` });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { id: projectId } = created.body.project;
      const set = await target.console('PATCH', `/projects/${projectId}/settings`, quotas);
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const credentials = { projectId, appId: created.body.appId, appSecret: created.body.appSecret };
      const clients = target.nodes.map((node) => new ApiClient(node.baseUrl, credentials));
      return { projectId, quotas, clients };
    };
  });
  after(async () => {
    for (const node of target.nodes ?? []) await node.stop();
    await stack?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return target;
}

/**
 * The answer once it is not 503 UNAVAILABLE (documented for contention: a busy database), which
 * must clear within a few retries; never any other 5xx.
 */
export async function settled(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let attempt = 0; ; attempt++) {
    const answer = await send();
    if (answer.status === 503 && attempt < 6) {
      assert.equal(answer.body?.code, 'UNAVAILABLE', answer.text);
      await delay(25 * 2 ** attempt);
      continue;
    }
    assert.ok(answer.status < 500, `${answer.status} ${answer.text}`);
    return answer;
  }
}

/** Files and bytes of the project and of each of its users, as the console's usage API shows them. */
export type ObservedUsage = {
  files: number;
  bytes: number;
  users: Array<{ userId: string; files: number; bytes: number }>;
};

export async function readConsoleUsage(target: QuotaRaceTarget, projectId: string): Promise<ObservedUsage> {
  const answer = await target.console('GET', `/projects/${projectId}/usage?limit=100`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** Fails when an observed counter is past a quota of the project. */
export function assertWithinQuotas(usage: ObservedUsage, quotas: QuotaLimits, when: string): void {
  const over = (used: number, limit: number | null) => limit !== null && used > limit;
  const problems = [
    over(usage.files, quotas.projectQuotaFiles) && `project files ${usage.files}`,
    over(usage.bytes, quotas.projectQuotaBytes) && `project bytes ${usage.bytes}`,
    ...usage.users.flatMap((user) => [
      over(user.files, quotas.userQuotaFiles) && `user ${user.userId} files ${user.files}`,
      over(user.bytes, quotas.userQuotaBytes) && `user ${user.userId} bytes ${user.bytes}`,
    ]),
  ].filter(Boolean);
  assert.deepEqual(problems, [], `${when}: usage past a quota ${JSON.stringify(quotas)}`);
}
