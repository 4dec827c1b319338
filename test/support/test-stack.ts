import { randomBytes } from 'node:crypto';

/**
 * The stores a test server runs on. By default the embedded ones (SQLite and disk in the
 * server's data dir). scripts/run-tests.js runs the API, access, CLI and end-to-end suites a
 * second time with COFFER_TEST_POSTGRES_URL and COFFER_TEST_STORAGE_URL set: then every server
 * gets a fresh PostgreSQL database and its own key prefix in the S3 bucket.
 */
export type TestStack = {
  name: 'embedded' | 'pg-s3';
  /** CLI flags for the server (empty on the embedded stack). */
  settings: Record<string, string>;
  /** The same as environment variables, for child processes. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
};

export function currentStackName(): TestStack['name'] {
  return process.env.COFFER_TEST_POSTGRES_URL ? 'pg-s3' : 'embedded';
}

/**
 * Whether scripts/run-tests.js makes this pass in the run (both unless COFFER_TEST_STACKS
 * narrows them): a suite that is the same in both may run in the one it suits. A file run
 * alone (no run) answers false for the other pass, so it runs where it is.
 */
export function runsPass(name: TestStack['name']): boolean {
  return (process.env.COFFER_TEST_PASSES ?? currentStackName()).split(',').includes(name);
}

/**
 * `migrated`: the PostgreSQL database may start migrated, a clone of the template the run
 * migrated once (COFFER_TEST_POSTGRES_TEMPLATE, set by scripts/run-tests.js); else it is empty.
 */
export async function prepareTestStack(options: { migrated?: boolean } = {}): Promise<TestStack> {
  if (currentStackName() === 'embedded')
    return { name: 'embedded', settings: {}, env: {}, cleanup: async () => {} };
  const template = options.migrated ? process.env.COFFER_TEST_POSTGRES_TEMPLATE : undefined;
  // Loaded here, not above: the embedded pass's test processes need neither it nor the pg driver.
  const { startPostgres } = await import('./postgres-server.ts');
  const postgres = await startPostgres({ template });
  if (!postgres) throw new Error('COFFER_TEST_POSTGRES_URL is set but PostgreSQL is unreachable');
  const settings: Record<string, string> = { 'database-url': postgres.url };
  const storageUrl = process.env.COFFER_TEST_STORAGE_URL;
  if (storageUrl) settings['storage-url'] = `${storageUrl}&prefix=t${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = { COFFER_DATABASE_URL: settings['database-url']! };
  if (settings['storage-url']) env.COFFER_STORAGE_URL = settings['storage-url'];
  return { name: 'pg-s3', settings, env, cleanup: () => postgres.stop() };
}
