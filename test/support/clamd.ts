import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClamdScanner } from '../../src/admission/clamd-scanner.ts';
import { systemClock } from '../../src/domain/clock.ts';

/**
 * A private ClamAV daemon for tests (issue 42): `clamd --foreground` on a Unix socket in a temp
 * dir, with a signature database this file writes (the EICAR body signature, anchors §7.2), so
 * no download and no system service. The system's clamd services are never touched.
 */
export type Clamd = {
  /** COFFER_SCAN_URL for it. */
  url: string;
  socketPath: string;
  /** StreamMaxLength, as COFFER_SCAN_MAX_BYTES. */
  maxBytes: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/** Why clamd tests cannot run here, or undefined when they can. */
export const clamdMissing: string | undefined =
  spawnSync('clamd', ['--version']).status === 0
    ? undefined
    : 'clamd is not installed (Debian: apt-get install --no-install-recommends clamav-daemon); scanning tests skipped';

/** The EICAR test file, built at run time from two halves so that no file of the repository holds it. */
export function eicarBytes(): Buffer {
  const first = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$';
  const second = 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
  return Buffer.from(first + second, 'latin1');
}

/** The product's clamd client over the daemon, as `coffer scan` opens it (one scan at a time). */
export function clamdScanner(clamd: Pick<Clamd, 'socketPath' | 'maxBytes'>): ClamdScanner {
  return new ClamdScanner({
    address: { path: clamd.socketPath },
    maxBytes: clamd.maxBytes,
    concurrency: 1,
    timeoutMs: 30_000,
    clock: systemClock,
  });
}

/** The signature name the database gives it (clamd adds `.UNOFFICIAL`: match the prefix). */
export const eicarSignature = 'Coffer.Test.EICAR';

export async function startClamd(options: { maxBytes?: number } = {}): Promise<Clamd> {
  const dir = await mkdtemp(join(tmpdir(), 'coffer-clamd-'));
  const db = join(dir, 'db');
  await mkdir(db);
  await mkdir(join(dir, 'tmp'));
  // A body signature matches with bytes around it too (anchors §7.2).
  await writeFile(join(db, 'coffer-test.ndb'), `${eicarSignature}:0:*:${eicarBytes().toString('hex')}\n`);
  const socketPath = join(dir, 'clamd.sock');
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const conf = join(dir, 'clamd.conf');
  await writeFile(
    conf,
    [
      `LocalSocket ${socketPath}`,
      `DatabaseDirectory ${db}`,
      `TemporaryDirectory ${join(dir, 'tmp')}`,
      `PidFile ${join(dir, 'clamd.pid')}`,
      'Foreground yes',
      `StreamMaxLength ${maxBytes}`,
      `MaxFileSize ${maxBytes}`,
      `MaxScanSize ${maxBytes}`,
      'AlertExceedsMax yes',
      'MaxThreads 4',
      // A log of its own: clamd locks its log file, so two daemons cannot share one.
      `LogFile ${join(dir, 'clamd.log')}`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const clamd: Clamd = {
    // clamd:///abs/path: an empty host, then the socket's path.
    url: `clamd://${socketPath}`,
    socketPath,
    maxBytes,
    async start() {
      if (child) return;
      await rm(socketPath, { force: true });
      const started = spawn('clamd', ['--foreground', `--config-file=${conf}`], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      started.stderr?.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      started.on('error', () => {});
      child = started;
      for (let tries = 0; tries < 600; tries++) {
        if (started.exitCode !== null) throw new Error(`clamd exited: ${errors}`);
        if ((await ping(socketPath)) === 'PONG') return;
        await sleep(100);
      }
      throw new Error(`clamd did not answer PING: ${errors}`);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async close() {
      await clamd.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await clamd.start();
  return clamd;
}

function ping(path: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(path);
    let reply = '';
    socket.setTimeout(2000);
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
    });
    socket.on('end', () => resolve(reply.replace(/\0.*$/s, '')));
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => resolve(''));
    socket.on('close', () => resolve(reply.replace(/\0.*$/s, '')));
  });
}
