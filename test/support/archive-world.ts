import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import type { ApiClient, ApiResponse } from './api-client.ts';
import { startTestServer, type TestServer } from './in-process-server.ts';
import { ManualClock } from './manual-clock.ts';
import { assertStockReadersAccept } from './zip-readers.ts';

/** What the archive tests share: a server on a clock they move, and the calls they make. */
export type ArchiveWorld = Awaited<ReturnType<typeof startArchiveWorld>>;

export async function startArchiveWorld() {
  const clock = new ManualClock();
  const server: TestServer = await startTestServer({}, {}, { clock });
  const dir = await mkdtemp(path.join(tmpdir(), 'coffer-archives-'));
  let projects = 0;
  let zips = 0;
  const projectWith = async (settings: Partial<ProjectSettings> = {}) => {
    const client = await server.createProject(`archives-${projects++}`);
    const { projectId } = client.credentials;
    const current = await server.services.repositories.projects.findById(projectId);
    await server.services.repositories.projects.updateSettings(projectId, {
      ...current!.settings,
      ...settings,
    });
    return client;
  };
  return {
    clock,
    server,
    projectWith,
    archive: (client: ApiClient, token: string, body: unknown) =>
      client.call('POST', '/api/v1/archives', { token, body }),
    created: (answer: ApiResponse) => {
      assert.equal(answer.status, 201, answer.text);
      return answer.body as {
        url: string;
        expiresAt: number;
        fileCount: number;
        totalBytes: number;
        archiveBytes: number;
      };
    },
    expectCode: (
      answer: ApiResponse | { status: number; body: { code: string } },
      status: number,
      code: string,
    ) => {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.code, code);
    },
    sha256: (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex'),
    fetchBytes: async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers });
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    },
    /** A refusal's status and body (HEAD answers no body). */
    errorOf: async (url: string, method = 'GET') => {
      const response = await fetch(url, { method });
      const text = await response.text();
      return { status: response.status, body: method === 'HEAD' ? { code: '' } : JSON.parse(text) };
    },
    /** Writes the ZIP into the test's own folder and has the stock readers check it. */
    checkZip: async (bytes: Buffer, expected: Map<string, string>) => {
      const file = path.join(dir, `archive-${zips++}.zip`);
      await writeFile(file, bytes);
      await assertStockReadersAccept(file, expected);
    },
    /** How many archives the database holds. */
    archivedRows: async () =>
      Number(
        (
          await server.services.database.db
            .selectFrom('archives')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
