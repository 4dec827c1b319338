/**
 * CPU seconds a large upload costs the server, by thread and by client:
 * `node bench/upload-cpu/measure-upload-cpu.ts [--mib 256] [--uploads 5] [--clients curl,fetch,http]`.
 * Starts `coffer serve` on its embedded defaults, uploads the same bytes (one file on disk) through
 * signed links (raw PUT) one after another from each client — curl, Node's fetch (undici) and
 * node:http — and reads from /proc the CPU time
 * (user + system) of the worker's main thread (the event loop every request shares) and of the
 * whole worker process, before and after each upload. CPU time, unlike a rate, holds on a
 * machine busy with other work (a thread waiting for a core uses none), so this shows where the
 * work of an upload runs even when wall-clock ratios swing. Issue 44 item 3: a PUT should cost the
 * server the same whoever sends it (Node's fetch ≤ 1.2× curl).
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
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

const clientNames = ['curl', 'fetch', 'fetch-stream', 'http'] as const;
type ClientName = (typeof clientNames)[number];
const { values } = parseArgs({
  options: { mib: { type: 'string' }, uploads: { type: 'string' }, clients: { type: 'string' } },
});
const sizeBytes = Number(values.mib ?? 256) * MiB;
const uploads = Number(values.uploads ?? 5);
const clients = (values.clients ?? clientNames.join(',')).split(',') as ClientName[];
for (const client of clients)
  if (!clientNames.includes(client))
    throw new Error(`--clients: ${client} is not one of ${clientNames.join(', ')}`);

/** utime + stime of a /proc stat file, in seconds (fields 14 and 15, after the command's parentheses). */
async function cpuSeconds(statPath: string): Promise<number> {
  const stat = await readFile(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** CPU seconds of each thread of a process, by thread name (libuv's pool, V8's helpers, the hash thread). */
async function threadSeconds(pid: number): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const name = (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => '?')).trim();
    const seconds = await cpuSeconds(`/proc/${pid}/task/${tid}/stat`).catch(() => 0);
    const key = tid === String(pid) ? 'event loop' : name;
    byName.set(key, (byName.get(key) ?? 0) + seconds);
  }
  return byName;
}

/** A file of `bytes` bytes, written 1 MiB at a time: every client sends the same bytes from disk. */
async function writeSource(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const block = fillBytes(MiB);
    for (let written = 0; written < bytes; written += MiB)
      await handle.write(block, 0, Math.min(MiB, bytes - written));
  } finally {
    await handle.close();
  }
}

/** curl's PUT of a file (`-T`), its answer dropped; fails on a status other than 200. */
function curlPut(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      'content-type: application/octet-stream',
      '-T',
      file,
      url,
    ];
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let status = '';
    child.stdout.on('data', (chunk: Buffer) => {
      status += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () => (status === '200' ? resolve() : reject(new Error(`curl: status ${status}`))));
  });
}

/** Node's fetch (undici) with the file as a Blob body, streamed from disk. */
async function fetchPut(url: string, file: string): Promise<void> {
  const answer = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: await openAsBlob(file),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`fetch: ${answer.status} ${text}`);
}

/**
 * Node's fetch with a stream body, as code that streams a file writes it: no length is known, so
 * undici sends it chunked (Transfer-Encoding: chunked), in the read stream's 64 KiB chunks.
 */
async function fetchStreamPut(url: string, file: string): Promise<void> {
  const answer = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`fetch-stream: ${answer.status} ${text}`);
}

/** node:http with the file piped from a read stream. */
async function httpPut(url: string, file: string, bytes: number): Promise<void> {
  const answer = await streamTransfer({
    url,
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
    body: createReadStream(file),
  });
  if (answer.status !== 200) throw new Error(`http: ${answer.status} ${answer.text}`);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-upload-cpu-'));
const server = await startCofferServer({ dataDir: path.join(dataDir, 'coffer') });
try {
  const workload = await seedWorkload(server, 'upload-cpu');
  const pid = server.workerPid;
  const warmFile = path.join(dataDir, 'warm.bin');
  const sourceFile = path.join(dataDir, 'source.bin');
  await writeSource(warmFile, 16 * MiB);
  await writeSource(sourceFile, sizeBytes);
  const upload = async (client: ClientName, file: string, bytes: number) => {
    const [link] = await requestUploadLinks(workload, 1, `cpu/${Math.random().toString(36).slice(2)}`);
    const url = `${link!.origin}${link!.path}`;
    if (client === 'curl') await curlPut(url, file);
    else if (client === 'fetch') await fetchPut(url, file);
    else if (client === 'fetch-stream') await fetchStreamPut(url, file);
    else await httpPut(url, file, bytes);
  };
  const mib = sizeBytes / MiB;
  console.log(`${uploads} uploads of ${mib} MiB per client (raw PUT through a signed link), medians:`);
  const perClient = new Map<ClientName, number>();
  for (const client of clients) {
    for (let i = 0; i < 2; i++) await upload(client, warmFile, 16 * MiB); // warm-up: JIT, the hash thread, buffers
    const rows: Array<{ mainMs: number; processMs: number; mibPerSecond: number }> = [];
    const byThread = new Map<string, number[]>();
    for (let i = 0; i < uploads; i++) {
      const threads0 = await threadSeconds(pid);
      const main0 = await cpuSeconds(`/proc/${pid}/task/${pid}/stat`);
      const all0 = await cpuSeconds(`/proc/${pid}/stat`);
      const started = performance.now();
      await upload(client, sourceFile, sizeBytes);
      const seconds = (performance.now() - started) / 1000;
      const main1 = await cpuSeconds(`/proc/${pid}/task/${pid}/stat`);
      const all1 = await cpuSeconds(`/proc/${pid}/stat`);
      for (const [name, seconds] of await threadSeconds(pid))
        byThread.set(name, [...(byThread.get(name) ?? []), (seconds - (threads0.get(name) ?? 0)) * 1000]);
      rows.push({
        mainMs: (main1 - main0) * 1000,
        processMs: (all1 - all0) * 1000,
        mibPerSecond: mib / seconds,
      });
    }
    const processMs = median(rows.map((row) => row.processMs));
    perClient.set(client, processMs);
    console.log(`${client}:`);
    console.log(`  event-loop thread CPU: ${median(rows.map((row) => row.mainMs)).toFixed(0)} ms per upload`);
    console.log(`  whole worker CPU:      ${processMs.toFixed(0)} ms per upload`);
    console.log(
      `  rate:                  ${median(rows.map((row) => row.mibPerSecond)).toFixed(0)} MiB/s (wall clock; swings with the machine's load)`,
    );
    console.log(
      `  rounds: ${JSON.stringify(rows.map((row) => [Math.round(row.mainMs), Math.round(row.processMs), Math.round(row.mibPerSecond)]))}`,
    );
    const threads = [...byThread].map(([name, ms]) => `${name} ${median(ms).toFixed(0)}`).join(', ');
    console.log(`  by thread (ms, medians): ${threads}`);
  }
  const curl = perClient.get('curl');
  if (curl)
    for (const [client, processMs] of perClient)
      if (client !== 'curl')
        console.log(`server CPU, ${client} ÷ curl: ${(processMs / curl).toFixed(2)}× (target ≤ 1.20×)`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
