/** /api/v1 scenarios, each against the bare Fastify ceiling. */
import { randomBytes } from 'node:crypto';
import type { Scenario } from '../scenario.ts';
import { seedServerRecords } from '../seed/seed-postgres-file-records.ts';
import { seedWorkload, uploadPool } from '../seed/workload.ts';
import { againstBareFastify, fromPool } from './sides.ts';

const json = { 'content-type': 'application/json' };

export const getUser: Scenario = {
  id: 'get-user',
  title: 'GET /api/v1/user',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    const workload = await context.workload();
    return againstBareFastify(context, {
      origin: workload.server.url,
      request: { method: 'GET', path: '/api/v1/user', headers: workload.headers },
    });
  },
};

export const requestUpload: Scenario = {
  id: 'request-upload',
  title: 'POST /api/v1/file (upload request)',
  unit: 'req/s',
  metric: 'rate',
  target: 0.25,
  prepare: async (context) => {
    const workload = await context.workload();
    // A write per request: every one needs a filePath of its own (else 409 FILE_EXISTS).
    const run = randomBytes(3).toString('hex');
    let count = 0;
    return againstBareFastify(context, {
      origin: workload.server.url,
      request: { method: 'POST', path: '/api/v1/file', headers: { ...workload.headers, ...json } },
      next: () => ({
        body: JSON.stringify({ filePath: `bench/${run}/${count++}.txt`, permissionScope: 'user' }),
      }),
    });
  },
};

export const getFile: Scenario = {
  id: 'get-file',
  title: 'GET /api/v1/file/:id (metadata + signed link)',
  unit: 'req/s',
  metric: 'rate',
  // Issue 9: at least 0.35× bare Fastify (aiming at 0.5×).
  target: 0.35,
  prepare: async (context) => {
    const workload = await context.workload();
    return againstBareFastify(context, {
      origin: workload.server.url,
      request: { method: 'GET', path: `/api/v1/file/${workload.smallFileId}`, headers: workload.headers },
    });
  },
};

export const listFiles: Scenario = {
  id: 'list-files',
  title: 'GET /api/v1/file (first page of 20, reader owning many files)',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    // A server of its own: on the main one, the reader's file count would depend on which
    // scenarios ran before (every upload request adds a record).
    const server = await context.startCoffer('list');
    const workload = await seedWorkload(server, 'list');
    const request = { method: 'GET' as const, path: '/api/v1/file?pageSize=20', headers: workload.headers };
    const probe = await fetch(`${server.url}${request.path}`, { headers: request.headers });
    await probe.arrayBuffer();
    if (probe.status !== 200)
      return { skipped: `GET /api/v1/file answers ${probe.status}: no listing endpoint yet` };
    const count = context.options.listRecords;
    await seedServerRecords(server, {
      projectId: server.credentials.projectId,
      creatorId: workload.userId,
      count: count - 1, // the workload's own file is one record
      sampleSize: 0,
    });
    console.log(`  the reader owns ${count.toLocaleString('en')} files`);
    return againstBareFastify(context, { origin: server.url, request });
  },
};

export const verifyUpload: Scenario = {
  id: 'verify',
  title: 'POST /api/v1/file/:id/verify',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    const workload = await context.workload();
    const amount = context.options.poolRequests;
    const headers = { ...workload.headers, ...json };
    const toRequest = (file: { fileId: string; etag: string }) => ({
      path: `/api/v1/file/${file.fileId}/verify`,
      body: JSON.stringify({ etag: file.etag }),
    });
    // Each verify needs an uploaded file of its own: a pool per run, filled before the timing.
    const fillPool = async () => {
      const pool = await uploadPool(workload, amount + 1, `verify/${randomBytes(3).toString('hex')}`);
      return { sample: toRequest(pool.pop()!), next: fromPool(pool, toRequest) };
    };
    const { sample } = await fillPool();
    return againstBareFastify(context, {
      origin: workload.server.url,
      request: { method: 'POST', headers, ...sample },
      amount,
      prepareRun: async () => (await fillPool()).next,
    });
  },
};

export const login: Scenario = {
  id: 'login',
  title: 'POST /api/v1/auth/login (argon2id by design)',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    const workload = await context.workload();
    const { 'sb-app-id': appId, 'sb-app-secret': appSecret } = workload.headers;
    return againstBareFastify(context, {
      origin: workload.server.url,
      request: {
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'sb-app-id': appId!, 'sb-app-secret': appSecret!, ...json },
        body: JSON.stringify({ email: workload.email, password: workload.password }),
      },
    });
  },
};
