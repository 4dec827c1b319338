import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config/config.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { createProject } from '../../src/domain/identity/create-project.ts';
import { createServiceKey } from '../../src/domain/identity/service-keys.ts';

let serviceKeySerial = 0;

import { buildServices, type Services } from '../../src/services.ts';
import { ApiClient, type AppCredentials } from './api-client.ts';
import { copyMigratedSqlite } from './migrated-databases.ts';
import { sharedSerializers, sharedValidators } from './shared-schema-compilers.ts';
import { prepareTestStack } from './test-stack.ts';

export type TestServer = {
  baseUrl: string;
  services: Services;
  client: ApiClient;
  credentials: AppCredentials;
  dataDir: string;
  /** Creates another project with its own credentials (and allowed origins). */
  createProject(name: string, origins?: string[]): Promise<ApiClient>;
  /** A new service key (csk_…) of the project (the default one unless named): a project admin. */
  createServiceKey(projectId?: string): Promise<string>;
  /** Starts the app's close (a drain), as SIGTERM does in a worker; stop() still cleans up. */
  beginClose(): Promise<void>;
  /** How many client connections the server holds open right now. */
  countConnections(): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Builds the real app over real stores (SQLite and disk in a temp dir unless the env says
 * otherwise) and listens on a free loopback port: tests talk HTTP to it.
 */
export async function startTestServer(
  settings: Record<string, string | boolean> = {},
  env: NodeJS.ProcessEnv = {},
  options: { clock?: Clock } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'coffer-test-'));
  const stack = await prepareTestStack({ migrated: true });
  const config: Config = loadConfig({ 'data-dir': dataDir, port: '0', ...stack.settings, ...settings }, env);
  // The embedded database in our folder starts as a copy of a migrated one (the PostgreSQL
  // stack's is cloned from a migrated template when the run made one): see migrated-databases.ts.
  const sqliteFile = path.join(dataDir, 'coffer.db');
  if (config.databaseUrl === `sqlite:${sqliteFile}`) await copyMigratedSqlite(sqliteFile);
  const services = await buildServices(config, { clock: options.clock });
  const app = await buildApp(services, {
    logger: false,
    schemaCompilers: { buildSerializer: sharedSerializers, buildValidator: sharedValidators },
  });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  services.publicUrl.value = baseUrl;
  const makeProject = async (name: string, origins: string[] = []) => {
    const { project, appSecret } = await createProject(services.repositories.projects, {
      name,
      allowedOrigins: origins,
    });
    return new ApiClient(baseUrl, { projectId: project.id, appId: project.appId, appSecret });
  };
  const client = await makeProject('default');
  return {
    baseUrl,
    services,
    client,
    credentials: client.credentials,
    dataDir,
    createProject: makeProject,
    createServiceKey: async (projectId = client.credentials.projectId) => {
      const project = await services.repositories.projects.findById(projectId);
      if (!project) throw new Error(`no project ${projectId}`);
      const name = `test-${++serviceKeySerial}`;
      const issued = await createServiceKey(services.repositories.serviceKeys, project, {
        name,
        clock: services.clock,
      });
      return issued.key;
    },
    beginClose: () => app.close(),
    countConnections: () =>
      new Promise((resolve, reject) =>
        app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    stop: async () => {
      await app.close();
      await services.close();
      await stack.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
