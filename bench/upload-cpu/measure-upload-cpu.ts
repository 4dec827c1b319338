/**
 * CPU seconds a large upload costs the server, by thread: `node bench/upload-cpu/measure-upload-cpu.ts
 * [--mib 256] [--uploads 5]`. Starts `coffer serve` on its embedded defaults, uploads the same
 * bytes through signed links (raw PUT) one after another, and reads from /proc the CPU time
 * (user + system) of the worker's main thread (the event loop every request shares) and of the
 * whole worker process, before and after each upload. CPU time, unlike a rate, holds on a
 * machine busy with other work (a thread waiting for a core uses none), so this shows where the
 * work of an upload runs even when wall-clock ratios swing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { streamTransfer } from '../memory/stream-transfer.ts';
import { startCofferServer } from '../processes/coffer-server.ts';
import { median } from '../scenario.ts';
import { fillBytes, requestUploadLinks, seedWorkload } from '../seed/workload.ts';

const MiB = 2 ** 20;
const ticksPerSecond = 100; // USER_HZ on Linux

const { values } = parseArgs({ options: { mib: { type: 'string' }, uploads: { type: 'string' } } });
const sizeBytes = Number(values.mib ?? 256) * MiB;
const uploads = Number(values.uploads ?? 5);

/** utime + stime of a /proc stat file, in seconds (fields 14 and 15, after the command's parentheses). */
async function cpuSeconds(statPath: string): Promise<number> {
  const stat = await readFile(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-upload-cpu-'));
const server = await startCofferServer({ dataDir: path.join(dataDir, 'coffer') });
try {
  const workload = await seedWorkload(server, 'upload-cpu');
  const pid = server.workerPid;
  const block = fillBytes(MiB);
  const upload = async (bytes: number) => {
    const [link] = await requestUploadLinks(workload, 1, `cpu/${Math.random().toString(36).slice(2)}`);
    const body = Readable.from(
      (function* () {
        for (let sent = 0; sent < bytes; sent += MiB) yield block;
      })(),
    );
    const answer = await streamTransfer({
      url: `${link!.origin}${link!.path}`,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
      body,
    });
    if (answer.status !== 200) throw new Error(`upload failed: ${answer.status} ${answer.text}`);
  };
  for (let i = 0; i < 2; i++) await upload(16 * MiB); // warm-up: JIT, the hash thread, buffers
  const rows: Array<{ mainMs: number; processMs: number; mibPerSecond: number }> = [];
  for (let i = 0; i < uploads; i++) {
    const main0 = await cpuSeconds(`/proc/${pid}/task/${pid}/stat`);
    const all0 = await cpuSeconds(`/proc/${pid}/stat`);
    const started = performance.now();
    await upload(sizeBytes);
    const seconds = (performance.now() - started) / 1000;
    const main1 = await cpuSeconds(`/proc/${pid}/task/${pid}/stat`);
    const all1 = await cpuSeconds(`/proc/${pid}/stat`);
    rows.push({
      mainMs: (main1 - main0) * 1000,
      processMs: (all1 - all0) * 1000,
      mibPerSecond: sizeBytes / MiB / seconds,
    });
  }
  const mib = sizeBytes / MiB;
  console.log(`${uploads} uploads of ${mib} MiB (raw PUT through a signed link), medians:`);
  console.log(`  event-loop thread CPU: ${median(rows.map((row) => row.mainMs)).toFixed(0)} ms per upload`);
  console.log(
    `  whole worker CPU:      ${median(rows.map((row) => row.processMs)).toFixed(0)} ms per upload`,
  );
  console.log(
    `  rate:                  ${median(rows.map((row) => row.mibPerSecond)).toFixed(0)} MiB/s (wall clock; swings with the machine's load)`,
  );
  console.log(
    `  rounds: ${JSON.stringify(rows.map((row) => [Math.round(row.mainMs), Math.round(row.processMs), Math.round(row.mibPerSecond)]))}`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
