/**
 * A primary killed by SIGKILL cannot remove its workers' socket folder; the next `coffer serve`
 * on the machine removes it (src/supervisor/runtime-dir.ts), and leaves a running primary's.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { startCofferProcess } from '../support/coffer-process.ts';

/** The socket folders named after the primary of that pid. */
const runtimeDirsOf = (pid: number) =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`coffer-sockets-${pid}-`));

describe("the workers' socket folder of a killed primary", () => {
  it('is removed by the next start; a running primary keeps its own', async () => {
    const killed = await startCofferProcess();
    const running = await startCofferProcess();
    try {
      assert.equal(runtimeDirsOf(killed.pid).length, 1);
      await killed.kill();
      assert.equal(runtimeDirsOf(killed.pid).length, 1, 'SIGKILL left it behind');
      const next = await startCofferProcess();
      try {
        assert.deepEqual(runtimeDirsOf(killed.pid), []);
        assert.equal(runtimeDirsOf(running.pid).length, 1);
        assert.equal(runtimeDirsOf(next.pid).length, 1);
      } finally {
        await next.stop();
      }
      assert.deepEqual(runtimeDirsOf(next.pid), [], 'a stopped primary removes its own');
    } finally {
      await running.stop();
      await killed.stop();
    }
  });
});
