import { randomBytes } from 'node:crypto';
import { type PostgresServer, startPostgres } from '../../test/support/postgres-server.ts';
import { startRgwOrS3rver } from '../../test/support/rgw-server.ts';
import type { S3TestServer } from '../../test/support/s3-server.ts';

/** Where a Coffer server keeps its records and its blobs. */
export type StackName = 'sqlite-fs' | 'pg-fs' | 'pg-s3';

/** What `coffer serve` needs to run on a stack: its flags and environment, and its database. */
export type StackSettings = {
  args: string[];
  env: Record<string, string>;
  databaseUrl?: string;
  /** The server's key prefix in the S3 bucket. */
  blobPrefix?: string;
};

/**
 * The PostgreSQL cluster and S3 server of a bench run: the very ones the tests use
 * (test/support/: a private cluster, or COFFER_TEST_POSTGRES_URL's server; a private Ceph RGW
 * where Ceph is installed, else s3rver in a child process, loudly), each started on first use.
 * Every Coffer server gets a database of its own and a key prefix of its own in the bucket, so
 * servers never see each other's records.
 */
export class BenchStores {
  #postgres: Promise<PostgresServer | undefined> | undefined;
  #s3: Promise<S3TestServer> | undefined;

  /** Whether PostgreSQL can be started here (else the pg stacks are skipped, loudly). */
  async hasPostgres(): Promise<boolean> {
    return (await this.#startPostgres()) !== undefined;
  }

  /** The S3 server (started if need be), for baselines that talk to it directly. */
  s3(): Promise<S3TestServer> {
    // RGW's OSD keeps objects in memory, 2 GiB for the tests: the large rows store 256 MiB per
    // transfer (each run deletes what it stored, deleteStoredObjects in
    // bench/scenarios/s3-sides.ts; RGW frees the space when its collector has been by).
    process.env.COFFER_RGW_MEMSTORE_BYTES ??= String(6 * 1024 ** 3);
    this.#s3 ??= startRgwOrS3rver();
    return this.#s3;
  }

  async settingsFor(stack: StackName, name: string): Promise<StackSettings> {
    if (stack === 'sqlite-fs') return { args: [], env: {} };
    const postgres = await this.#startPostgres();
    if (!postgres) throw new Error(`--stack ${stack} needs PostgreSQL (apt-get install -y postgresql)`);
    const databaseUrl = await postgres.createDatabase();
    const args = ['--database-url', databaseUrl];
    if (stack === 'pg-fs') return { args, env: {}, databaseUrl };
    const s3 = await this.s3();
    const prefix = `${name}-${randomBytes(3).toString('hex')}`;
    return {
      args: [...args, '--storage-url', `${s3.storageUrl}&prefix=${prefix}`],
      // The S3 blob store takes its credentials from the AWS SDK's default chain.
      env: {
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        AWS_REGION: 'us-east-1',
      },
      databaseUrl,
      blobPrefix: prefix,
    };
  }

  /** PostgreSQL's postmaster, when this run started one (its backends are its children). */
  async postgresPids(): Promise<number[]> {
    const postgres = await this.#postgres?.catch(() => undefined);
    const pid = await postgres?.postmasterPid?.();
    return pid === undefined ? [] : [pid];
  }

  /** Stops what was started (after the Coffer servers using it). */
  async close(): Promise<void> {
    await (await this.#s3?.catch(() => undefined))?.stop();
    await (await this.#postgres?.catch(() => undefined))?.stop();
  }

  #startPostgres(): Promise<PostgresServer | undefined> {
    this.#postgres ??= startPostgres();
    return this.#postgres;
  }
}
