import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

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
/**
 * s3rver's one built-in account (key and secret alike); the Ceph RGW of the tests gets the same
 * user. In the PostgreSQL + S3 pass a test that starts an S3 server of its own and an
 * in-process Coffer signs with the pass's credentials (AWS_ACCESS_KEY_ID, the SDK's chain):
 * every test server must take them.
 */
export const TEST_S3_ACCOUNT = 'S3RVER';

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
    accessKeyId: TEST_S3_ACCOUNT,
    secretAccessKey: TEST_S3_ACCOUNT,
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
    ['--openssl-legacy-provider', entry, directory, BUCKET, TEST_S3_ACCOUNT, String(port)],
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

let bucketsMade = 0;

/**
 * The same server with a fresh, empty bucket of its own (several suites share one Ceph
 * cluster, which takes longer to start than a bucket to make). Its stop() leaves the server
 * running: its owner stops that.
 */
export async function withNewBucket(server: S3TestServer): Promise<S3TestServer> {
  bucketsMade += 1;
  const bucket = `coffer-test-${process.pid}-${bucketsMade}`;
  await createBucket(server, bucket);
  const storageUrl = server.storageUrl.replace(`s3://${server.bucket}?`, `s3://${bucket}?`);
  return { ...server, bucket, storageUrl, stop: async () => {} };
}

/** Makes an empty bucket on a test server (path style, us-east-1, as they all take). */
export async function createBucket(
  server: Pick<S3TestServer, 'endpoint' | 'accessKeyId' | 'secretAccessKey'>,
  bucket: string,
): Promise<void> {
  const { endpoint, accessKeyId, secretAccessKey } = server;
  const credentials = { accessKeyId, secretAccessKey };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}
