import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type CofferProcess, runCli } from '../support/coffer-process.ts';
import { assertDatabaseIntegrity } from '../support/database-integrity.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { useCrashTarget } from './crash-target.ts';

const bin = path.resolve(import.meta.dirname, '../../bin/coffer.js');
const MiB = 1024 * 1024;
const files = 24;

/**
 * Copies, moves and bulk deletes in `writers` loops until stopped: the server writes, and
 * shares bytes between records, while the export reads.
 */
function startOrganizingLoad(coffer: CofferProcess, token: string, writers: number) {
  let stopping = false;
  const failures: string[] = [];
  const loop = async (writer: number) => {
    for (let n = 0; !stopping; n++) {
      try {
        const file = await coffer.client.uploadFile(token, `load/${writer}/${n}.bin`, `load ${writer} ${n}`);
        const call = (url: string, body: unknown) => coffer.client.call('POST', url, { token, body });
        const copied = await call(`/api/v1/file/${file._id}/copy`, { filePath: `load/${writer}/${n}.copy` });
        const moved = await call(`/api/v1/file/${file._id}/move`, { filePath: `load/${writer}/${n}.moved` });
        const deleted = await call('/api/v1/file/delete', { fileIds: [file._id] });
        for (const answer of [copied, moved, deleted])
          if (answer.status !== 200) failures.push(`${answer.status} ${answer.text}`);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const loops = Array.from({ length: writers }, (_, writer) => loop(writer));
  return {
    failures,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** Polls (a condition, never a fixed sleep) until `ready` holds or the process has exited. */
async function waitFor(ready: () => Promise<boolean>, exited: () => boolean): Promise<void> {
  while (!exited() && !(await ready())) await delay(2);
}

describe(`kill -9 of coffer export while the server writes (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 of coffer export');
  const target = useCrashTarget();
  let work: string | undefined;
  after(() => (work ? rm(work, { recursive: true, force: true }) : undefined));

  it('the cut-off export is refused as incomplete by export --verify and import (which write nothing); a new export completes and verifies', {
    timeout: 180_000,
  }, async (t) => {
    const random = seededRandom(seed);
    const { coffer, token } = target;
    work = await mkdtemp(path.join(tmpdir(), 'coffer-export-kill-'));
    // Enough bytes that the export is still copying when the seeded moment comes.
    await Promise.all(
      Array.from({ length: files }, (_, index) =>
        coffer.client.uploadFile(token, `big/${index}.bin`, random.bytes(2 * MiB, `big/${index}`)),
      ),
    );
    const load = startOrganizingLoad(coffer, token, 4);
    try {
      // 0: while it writes the rows; n: once the n-th file's bytes are out, half of them at most.
      const killAt = random.int(0, files / 2);
      const partial = path.join(work, 'partial');
      const exporting = spawn(
        process.execPath,
        [bin, 'export', '--out', partial, '--data-dir', coffer.dataDir],
        {
          env: { ...process.env, ...coffer.env },
          stdio: 'ignore',
        },
      );
      const exit = once(exporting, 'exit');
      const blobDir = path.join(partial, 'blobs', coffer.credentials.projectId);
      const sidecars = async () =>
        (await readdir(blobDir).catch(() => [])).filter((name) => name.endsWith('.json'));
      await waitFor(
        async () =>
          killAt === 0
            ? existsSync(path.join(partial, 'metadata.ndjson.partial'))
            : (await sidecars()).length >= killAt,
        () => exporting.exitCode !== null,
      );
      exporting.kill('SIGKILL');
      const [code, signal] = await exit;
      assert.equal(
        signal,
        'SIGKILL',
        `the export ended by itself (exit ${code}) before the kill at ${killAt}`,
      );
      t.diagnostic(`seed ${seed}: killed at ${killAt}, with ${(await sidecars()).length} files' bytes out`);

      for (const args of [
        ['export', '--verify', partial],
        ['import', '--in', partial, '--data-dir', path.join(work, 'imported')],
      ]) {
        // The import's target is an embedded one whatever the stack: it must not even be created.
        const refused = await runCli([...args, '--json']);
        assert.notEqual(refused.code, 0, `${args[0]} of a cut-off export succeeded`);
        assert.match(refused.stderr, /incomplete export/, `${args.join(' ')}: ${refused.stderr}`);
      }
      assert.equal(existsSync(path.join(work, 'imported')), false, 'the refused import wrote its target');

      const fresh = path.join(work, 'fresh');
      const exported = await runCli(
        ['export', '--out', fresh, '--data-dir', coffer.dataDir, '--json'],
        coffer.env,
      );
      assert.equal(exported.code, 0, exported.stderr);
      const verified = await runCli(['export', '--verify', fresh, '--json']);
      assert.equal(verified.code, 0, verified.stderr);
    } finally {
      await load.stop();
    }
    assert.deepEqual(load.failures, [], 'the server kept serving every write during the exports');
    await assertDatabaseIntegrity(coffer);
  });
});
