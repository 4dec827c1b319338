import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export type S3TestServer = {
  storageUrl: string;
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** SIGKILL: the store vanishes mid-request, as in a crash (its files stay). */
  kill(): Promise<void>;
  /** Starts the killed server again, on the same port, over the same files. */
  start(): Promise<void>;
  stop(): Promise<void>;
};

const BUCKET = 'coffer-test';
// s3rver's one built-in account.
const ACCESS_KEY = 'S3RVER';

type S3Process = { child: ChildProcessByStdio<Writable, Readable, null>; exited: Promise<unknown[]> };

/**
 * A real S3-protocol server (s3rver from npm, with the fixes in s3rver-fixes.ts) in a child
 * process on a free loopback port, with an empty bucket; its files go in a temp directory
 * (or the given one).
 */
export async function startS3Server(options: { directory?: string } = {}): Promise<S3TestServer> {
  // A given directory is the caller's (e.g. a small file system to fill): only emptied at stop.
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'coffer-s3rver-')));
  let running = await startProcess(directory, 0);
  const endpoint = `http://127.0.0.1:${running.port}`;
  return {
    storageUrl: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    endpoint,
    bucket: BUCKET,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    async kill() {
      running.child.kill('SIGKILL');
      await running.exited;
    },
    async start() {
      running = await startProcess(directory, running.port);
    },
    async stop() {
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.stdin.end();
      await running.exited;
      if (options.directory) {
        for (const name of await readdir(directory))
          await rm(join(directory, name), { recursive: true, force: true });
      } else await rm(directory, { recursive: true, force: true });
    },
  };
}

async function startProcess(directory: string, port: number): Promise<S3Process & { port: number }> {
  const entry = join(import.meta.dirname, 's3-server-process.ts');
  // s3rver's ListObjectsV2 continuation tokens are DES-encrypted: OpenSSL 3 keeps DES in its
  // legacy provider, without which every listing past the first page fails with a 500.
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', entry, directory, BUCKET, ACCESS_KEY, String(port)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  // Writing to a killed server's stdin fails; that is no error of the test's.
  child.stdin.on('error', () => {});
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout }), 'line'),
    exited.then(([code]) => Promise.reject(new Error(`s3rver exited with ${code} before listening`))),
  ])) as [string];
  return { child, exited, port: (JSON.parse(line) as { port: number }).port };
}
