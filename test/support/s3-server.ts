import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type S3TestServer = {
  storageUrl: string;
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
};

const BUCKET = 'coffer-test';
// s3rver's one built-in account.
const ACCESS_KEY = 'S3RVER';

/**
 * A real S3-protocol server (s3rver from npm, with the fixes in s3rver-fixes.ts) in a child
 * process on a free loopback port, with an empty bucket; its files go in a temp directory
 * (or the given one).
 */
export async function startS3Server(options: { directory?: string } = {}): Promise<S3TestServer> {
  // A given directory is the caller's (e.g. a small file system to fill): only emptied at stop.
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'coffer-s3rver-')));
  const entry = join(import.meta.dirname, 's3-server-process.ts');
  // s3rver's ListObjectsV2 continuation tokens are DES-encrypted: OpenSSL 3 keeps DES in its
  // legacy provider, without which every listing past the first page fails with a 500.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', entry, directory, BUCKET, ACCESS_KEY], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout }), 'line'),
    exited.then(([code]) => Promise.reject(new Error(`s3rver exited with ${code} before listening`))),
  ])) as [string];
  const { port } = JSON.parse(line) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    storageUrl: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    endpoint,
    bucket: BUCKET,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: ACCESS_KEY,
    async stop() {
      child.stdin.end();
      await exited;
      if (options.directory) {
        for (const name of await readdir(directory))
          await rm(join(directory, name), { recursive: true, force: true });
      } else await rm(directory, { recursive: true, force: true });
    },
  };
}
