import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { type CofferProcess, startCofferProcess } from './coffer-process.ts';
import { prepareTestStack, type TestStack } from './test-stack.ts';

export type TwoNodes = { nodeA: CofferProcess; nodeB: CofferProcess };

/**
 * Stateless nodes for the enclosing describe: two `coffer serve` processes sharing the stack's
 * stores and one data dir (node A writes the default project's credentials there, B finds it
 * made), started before its tests and stopped after. The answer is filled in by then.
 */
export function useTwoNodes(options: { argsB?: string[]; env?: NodeJS.ProcessEnv } = {}): TwoNodes {
  const nodes = {} as TwoNodes;
  let stack: TestStack | undefined;
  let dataDir: string | undefined;
  before(async () => {
    stack = await prepareTestStack();
    dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-nodes-'));
    nodes.nodeA = await startCofferProcess({ stack, dataDir, env: options.env });
    nodes.nodeB = await startCofferProcess({ stack, dataDir, args: options.argsB, env: options.env });
  });
  after(async () => {
    await nodes.nodeA?.stop();
    await nodes.nodeB?.stop();
    await stack?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return nodes;
}
