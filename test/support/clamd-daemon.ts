import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Scanner, ScanVerdict } from '../../src/domain/admission/scanner.ts';

// A private ClamAV daemon for the admission tests (issue 42): Debian's clamd, started on a
// socket in a temp dir with a signature database this file writes (no freshclam, no download;
// anchors §7.1–7.2). MERGE: the scanning part's test/support/clamd.ts does the same; the lead
// keeps one.

/** The EICAR test file (68 bytes), built at run time so no file in the repository starts with it. */
export function eicarBytes(): Buffer {
  return Buffer.from(`X5O!P%@AP[4\\PZX54(P^)7CC)7}$${'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'}`);
}

/** A body signature of EICAR (anchors §7.2): it matches with trailing bytes too. clamd names it `….UNOFFICIAL`. */
const signatureName = 'Coffer.Test.EICAR';
const ndbLine = `${signatureName}:0:0:${eicarBytes().toString('hex')}\n`;

const candidates = ['/usr/sbin/clamd', '/usr/bin/clamd', 'clamd'];

/** The clamd executable, or undefined when it is not installed (then the tests skip, saying so). */
export function findClamd(): string | undefined {
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

/** Why the clamd tests skip here, or false when they run. */
export function clamdSkipReason(): string | false {
  return findClamd() === undefined
    ? 'clamd is not installed (Debian: apt-get install clamav-daemon); the ClamAV tests are skipped'
    : false;
}

export type ClamdDaemon = {
  socketPath: string;
  /** COFFER_SCAN_URL's spelling of the socket. */
  scanUrl: string;
  /** A Scanner over the daemon's INSTREAM (test support: the product's client is the scanning part's). */
  scanner: Scanner;
  /** StreamMaxLength as configured. */
  maxBytes: number;
  stop(): Promise<void>;
};

/** Starts a private clamd and waits until it answers PING. */
export async function startClamd(options: { maxBytes?: number } = {}): Promise<ClamdDaemon> {
  const executable = findClamd();
  if (!executable) throw new Error('clamd is not installed');
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const dir = await mkdtemp(path.join(tmpdir(), 'coffer-clamd-'));
  const socketPath = path.join(dir, 'clamd.sock');
  await mkdir(path.join(dir, 'db'));
  await mkdir(path.join(dir, 'tmp'));
  await writeFile(path.join(dir, 'db', 'coffer-test.ndb'), ndbLine);
  const configFile = path.join(dir, 'clamd.conf');
  await writeFile(
    configFile,
    [
      'Foreground yes',
      `LocalSocket ${socketPath}`,
      `DatabaseDirectory ${path.join(dir, 'db')}`,
      `TemporaryDirectory ${path.join(dir, 'tmp')}`,
      `StreamMaxLength ${maxBytes}`,
      'AlertExceedsMax yes',
      `LogFile ${path.join(dir, 'clamd.log')}`,
      '',
    ].join('\n'),
  );
  const child = spawn(executable, ['--foreground', `--config-file=${configFile}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.on('error', () => {});
  const exited = once(child, 'exit');
  try {
    await waitForPong(socketPath, child);
  } catch (error) {
    child.kill('SIGKILL');
    const log = await readFile(path.join(dir, 'clamd.log'), 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`clamd did not start: ${(error as Error).message}\n${stderr}\n${log}`);
  }
  return {
    socketPath,
    scanUrl: `clamd://${socketPath}`,
    scanner: new ClamdTestScanner(socketPath, maxBytes),
    maxBytes,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Polls PING until PONG: clamd loads its database before it listens. */
async function waitForPong(socketPath: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`clamd exited with ${child.exitCode}`);
    const reply = await command(socketPath, 'zPING\0').catch(() => '');
    if (reply.startsWith('PONG')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no PONG within 60 s');
}

/** One z-command (NUL-terminated) and its whole reply. */
function command(socketPath: string, text: string, body?: AsyncIterable<Uint8Array>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let reply = '';
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
    });
    socket.on('end', () => resolve(reply.replace(/\0$/, '')));
    socket.on('connect', () => {
      socket.write(text);
      if (!body) return;
      writeChunks(socket, body).catch((error) => socket.destroy(error));
    });
  });
}

/** INSTREAM framing (clamd(8)): `<4-byte big-endian length><data>`…, then a zero length. */
async function writeChunks(socket: net.Socket, body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.byteLength);
    socket.write(length);
    if (!socket.write(chunk)) await once(socket, 'drain');
  }
  socket.write(Buffer.alloc(4));
}

/** A minimal INSTREAM client for the tests; answers as the Scanner interface says. */
class ClamdTestScanner implements Scanner {
  readonly maxBytes: number;
  readonly #socketPath: string;

  constructor(socketPath: string, maxBytes: number) {
    this.#socketPath = socketPath;
    this.maxBytes = maxBytes;
  }

  async scan(bytes: AsyncIterable<Uint8Array> | NodeJS.ReadableStream): Promise<ScanVerdict> {
    const scannedAt = new Date().toISOString();
    const version = await command(this.#socketPath, 'zVERSION\0');
    const [engine = 'ClamAV', signatures = ''] = version.split('/');
    const reply = await command(this.#socketPath, 'zINSTREAM\0', bytes as AsyncIterable<Uint8Array>);
    const found = /^stream: (.+) FOUND$/.exec(reply);
    if (found) return { result: 'infected', signature: found[1]!, engine, signatures, scannedAt };
    if (reply === 'stream: OK') return { result: 'clean', engine, signatures, scannedAt };
    throw new Error(`clamd answered ${JSON.stringify(reply)}`);
  }
}
