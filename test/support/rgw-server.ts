/**
 * A real S3 for tests (issue 25): Ceph's RADOS Gateway on a private, throwaway cluster, beside
 * s3rver and our own SigV4 verifier, which may share our misreadings of S3. Started from
 * Debian's `ceph-mon`, `ceph-osd` and `radosgw` packages (ceph-cluster.ts): one monitor, one
 * OSD keeping objects in memory (memstore), pools of one replica, radosgw (beast) on a free
 * loopback port, s3rver's account and an empty bucket, in about 2 s. Two runs side by side get
 * their own folders, ports and fsids.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CephCluster, findCephPrograms, toRgwStartError } from './ceph-cluster.ts';
import { freePort } from './postgres-server.ts';
import {
  createBucket,
  type S3TestServer,
  startS3Server,
  TEST_S3_ACCOUNT,
  withNewBucket,
} from './s3-server.ts';

export { RgwStartError } from './ceph-cluster.ts';

const BUCKET = 'coffer-test';

/**
 * Starts a cluster and its gateway, or returns undefined (after saying so, loudly) when the
 * Ceph packages are not installed. Throws an RgwStartError when they are but it cannot start.
 * kill() and start() SIGKILL and start radosgw alone, on the same port: the objects stay.
 */
export async function startRgw(): Promise<S3TestServer | undefined> {
  const programs = findCephPrograms();
  if (!programs) {
    console.warn(
      '\n*** SKIPPED: the tests against Ceph RGW, a real S3 (no ceph-mon, ceph-osd or radosgw). ' +
        'Enable them with `apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw` ' +
        '(the tests start their own private cluster; no system service is used) ***\n',
    );
    return undefined;
  }
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const dir = await mkdtemp(join(tmpdir(), 'coffer-rgw-'));
  const cluster = new CephCluster({ programs, dir, endpoint });
  const keys = { accessKeyId: TEST_S3_ACCOUNT, secretAccessKey: TEST_S3_ACCOUNT };
  try {
    await cluster.bootstrap();
    await cluster.startGateway();
    await cluster.createUser(keys);
    await createBucket({ endpoint, ...keys }, BUCKET).catch((error: unknown) => {
      throw toRgwStartError(error, 'CreateBucket');
    });
  } catch (error) {
    await cluster.destroy();
    throw toRgwStartError(error);
  }
  return {
    storageUrl: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    endpoint,
    bucket: BUCKET,
    ...keys,
    kill: () => cluster.killGateway(),
    start: () => cluster.startGateway(),
    stop: () => cluster.destroy(),
  };
}

/**
 * Ceph RGW when installed, else s3rver after saying so (loudly, as startRgw does): for tests
 * whose S3 may be either, such as a gateway killed and started again.
 */
export async function startRgwOrS3rver(): Promise<S3TestServer> {
  return (await startRgw()) ?? startS3Server();
}

/**
 * The S3 servers a suite runs against, by name: s3rver, and Ceph RGW when one is given (started
 * once per file, as it takes seconds; each suite gets a bucket of its own on it).
 */
export function s3ServersToTest(rgw: S3TestServer | undefined): [string, () => Promise<S3TestServer>][] {
  const servers: [string, () => Promise<S3TestServer>][] = [['s3rver', () => startS3Server()]];
  if (rgw) servers.push(['Ceph RGW', () => withNewBucket(rgw)]);
  return servers;
}
