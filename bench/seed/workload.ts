import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ApiClient } from '../../test/support/api-client.ts';
import { runCli } from '../../test/support/coffer-process.ts';
import type { CofferServer } from '../processes/coffer-server.ts';

/** A seeded server: one user with a token, and a verified 1 KiB file for the read scenarios. */
export type Workload = {
  server: CofferServer;
  api: ApiClient;
  token: string;
  userId: string;
  email: string;
  password: string;
  /** App credentials and the bearer token: what every control-plane request carries. */
  headers: Record<string, string>;
  smallFileId: string;
};

/** Signs a user up through the API (one argon2 hash) and uploads the small file. */
export async function seedWorkload(server: CofferServer, name: string): Promise<Workload> {
  const api = new ApiClient(server.url, server.credentials);
  const user = await api.signup(`${name}@bench.example`, 'bench password 1');
  const small = await api.uploadFile(user.token, 'bench/small.bin', fillBytes(1024), {
    contentType: 'application/octet-stream',
  });
  const { appId, appSecret } = server.credentials;
  return {
    server,
    api,
    token: user.token,
    userId: user.userId,
    email: user.email,
    password: user.password,
    headers: { 'sb-app-id': appId, 'sb-app-secret': appSecret, authorization: `Bearer ${user.token}` },
    smallFileId: small._id,
  };
}

/** `size` bytes of a repeated random-looking pattern: cheap to make, and not compressible by accident. */
export function fillBytes(size: number): Buffer {
  const block = Buffer.alloc(64 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
  return Buffer.alloc(size, block);
}

/** A signed download link for a verified file, split for autocannon: origin and path. */
export async function getDownloadLink(
  workload: Workload,
  fileId: string,
): Promise<{ origin: string; path: string }> {
  const answer = await workload.api.call('GET', `/api/v1/file/${fileId}?expiresInSeconds=86400`, {
    token: workload.token,
  });
  if (answer.status !== 200) throw new Error(`GET file failed: ${answer.status} ${answer.text}`);
  return splitUrl(answer.body.url as string);
}

/** Fresh upload links, asked for in advance: each upload needs its own (one record per filePath). */
export async function requestUploadLinks(workload: Workload, count: number, prefix: string) {
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const answer = await workload.api.call('POST', '/api/v1/file', {
        token: workload.token,
        body: { filePath: `${prefix}/${i}.bin` },
      });
      if (answer.status !== 200) throw new Error(`upload request failed: ${answer.status} ${answer.text}`);
      return { fileId: answer.body.fileId as string, ...splitUrl(answer.body.putFileUrl as string) };
    },
  );
}

/** Uploaded but unverified files with their ETags: each verify consumes one. */
export async function uploadPool(workload: Workload, count: number, prefix: string) {
  const links = await requestUploadLinks(workload, count, prefix);
  return mapLimit(links, 8, async (link) => {
    const put = await fetch(`${link.origin}${link.path}`, { method: 'PUT', body: `pool ${link.fileId}` });
    if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
    await put.arrayBuffer();
    return { fileId: link.fileId, etag: put.headers.get('etag') ?? '' };
  });
}

/** Where FsBlobStore keeps a file's current bytes (`<project>/<fileId>.<version>.blob`), for the baselines. */
export async function findBlobFile(
  workload: Workload,
  fileId: string,
): Promise<{ root: string; relative: string }> {
  const root = path.join(workload.server.dataDir, 'blobs');
  const dir = workload.server.credentials.projectId;
  const name = (await readdir(path.join(root, dir))).find(
    (n) => n.startsWith(`${fileId}.`) && n.endsWith('.blob'),
  );
  if (!name) throw new Error(`no blob file for ${fileId} under ${root}`);
  return { root, relative: `/${dir}/${name}` };
}

export function splitUrl(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/** Runs `work` over the items with at most `limit` in flight, keeping their order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A service key of the server's default project (issue 35: webhooks and the audit log need one;
 * the app secret administers nothing), made as an operator does, with `coffer project key create`.
 */
export async function createServiceKey(server: CofferServer, name: string): Promise<string> {
  const args = ['project', 'key', 'create', server.credentials.projectId, '--name', name, '--json'];
  const stores = [
    '--data-dir',
    server.dataDir,
    ...(server.databaseUrl ? ['--database-url', server.databaseUrl] : []),
  ];
  const created = await runCli([...args, ...stores]);
  if (created.code !== 0) throw new Error(`coffer project key create: ${created.stderr}`);
  return JSON.parse(created.stdout).key as string;
}

/**
 * Another project on the server's stores, made as an operator does (`coffer project create`):
 * the server answers it at once. Returns the server as seen with that project's credentials.
 */
export async function createProject(server: CofferServer, name: string): Promise<CofferServer> {
  const args = ['project', 'create', name, '--json'];
  const stores = [
    '--data-dir',
    server.dataDir,
    ...(server.databaseUrl ? ['--database-url', server.databaseUrl] : []),
  ];
  const created = await runCli([...args, ...stores]);
  if (created.code !== 0) throw new Error(`coffer project create: ${created.stderr}`);
  const { projectId, appId, appSecret } = JSON.parse(created.stdout);
  return { ...server, credentials: { projectId, appId, appSecret } };
}
