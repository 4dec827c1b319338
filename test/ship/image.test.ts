import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ApiClient, type AppCredentials } from '../support/api-client.ts';
import { missingContainerTools, type PrivatePodman, startPrivatePodman } from '../support/private-podman.ts';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * Issue 43: the container image (deploy/Containerfile), built by deploy/build-image.sh from this
 * machine's packages and run as an operator would: non-root, read-only root filesystem, one
 * data volume, a secret from a file, the health check, a graceful stop, and the data surviving
 * a new container on the same volume. Building takes minutes (debootstrap), so the normal suite
 * skips it: .ci/run runs it as a step of its own with COFFER_TEST_IMAGE=1. An image archive
 * built already is taken from COFFER_TEST_IMAGE_ARCHIVE; COFFER_TEST_IMAGE_BASE_TAR reuses a base.
 */
const missing = missingContainerTools();
const skip =
  process.env.COFFER_TEST_IMAGE !== '1'
    ? 'the image test runs as its own CI step (COFFER_TEST_IMAGE=1 node --test test/ship/image.test.ts)'
    : missing.length > 0
      ? `${missing.join(', ')} missing on this machine (apt-get install podman runc debootstrap): the image is not tested`
      : process.getuid?.() !== 0
        ? 'the image test runs as root (a private rootful podman, as .ci/run has it): the image is not tested'
        : false;

describe('the container image', { skip }, () => {
  let podman: PrivatePodman;
  let baseUrl: string;
  let credentials: AppCredentials;
  const metricsToken = `metrics-${Math.random().toString(36).slice(2)}`;
  const content = 'Quarterly numbers, stored in a container\n';
  let upload: { fileId: string; email: string; password: string };
  let port: number;

  before(async () => {
    podman = await startPrivatePodman();
    const archive = process.env.COFFER_TEST_IMAGE_ARCHIVE;
    if (archive) {
      await podman.run(['load', '--quiet', '--input', archive]);
    } else {
      // Built straight into this test's private root: no archive to write and load again.
      const base = process.env.COFFER_TEST_IMAGE_BASE_TAR;
      const built = await execFileAsync(
        path.join(root, 'deploy/build-image.sh'),
        ['--podman-root', podman.dir, ...(base ? ['--base-tar', base] : [])],
        { timeout: 900_000, maxBuffer: 64 * 1024 * 1024 },
      );
      console.log(built.stdout.trim());
    }
    await podman.run(['volume', 'create', 'coffer-data']);
    // A secret as orchestrators hand them over: a file in a read-only mount, owned by the service's user.
    await mkdir(path.join(podman.dir, 'secrets'), { mode: 0o755 });
    const secretFile = path.join(podman.dir, 'secrets', 'metrics_token');
    await writeFile(secretFile, `${metricsToken}\n`, { mode: 0o400 });
    await chown(secretFile, 10001, 10001);
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
  });
  after(() => podman?.remove());

  /** A container of the image on the data volume, on loopback of the host's network (no bridge: containers.md). */
  const startContainer = async (name: string) => {
    await podman.run([
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--read-only',
      // Healthchecks are run below by hand: podman's timers need a systemd this host does not run.
      '--health-interval',
      'disable',
      '--volume',
      'coffer-data:/data',
      // A directory mount: on a read-only root, runc cannot create a single file's mount point.
      '--mount',
      `type=bind,source=${path.join(podman.dir, 'secrets')},destination=/run/secrets,readonly`,
      '--env',
      'COFFER_HOST=127.0.0.1',
      '--env',
      `COFFER_PORT=${port}`,
      '--env',
      'COFFER_METRICS_TOKEN_FILE=/run/secrets/metrics_token',
      'localhost/coffer:latest',
    ]);
    await waitUntilReady(name);
  };

  const waitUntilReady = async (name: string) => {
    // A hang guard, sized for a busy machine; readiness is what is awaited, not a time.
    const deadline = Date.now() + 180_000;
    for (;;) {
      const ready = await fetch(`${baseUrl}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return;
      const state = await podman.run(['inspect', name, '--format', '{{.State.Status}}']);
      if (state.stdout.trim() !== 'running' || Date.now() > deadline) {
        const logs = await podman.try(['logs', name]);
        assert.fail(`${name} is ${state.stdout.trim()}, not ready:\n${logs.stdout}${logs.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  const stopContainer = async (name: string) => {
    await podman.run(['stop', '--time', '60', name]);
    const exit = await podman.run(['inspect', name, '--format', '{{.State.ExitCode}}']);
    const logs = await podman.run(['logs', name]);
    await podman.run(['rm', name]);
    return { exitCode: Number(exit.stdout.trim()), logs: logs.stdout + logs.stderr };
  };

  it('runs as a non-root user on a read-only root, healthy, with the seed flow over loopback', async () => {
    await startContainer('coffer-1');
    const whoami = await podman.run(['exec', 'coffer-1', 'id', '-u']);
    assert.equal(whoami.stdout.trim(), '10001');
    const write = await podman.try(['exec', 'coffer-1', 'touch', '/opt/coffer/written']);
    assert.notEqual(write.code, 0, 'the root filesystem is read-only');
    assert.match(write.stderr, /Read-only file system/);
    const health = await podman.try(['healthcheck', 'run', 'coffer-1']);
    assert.equal(health.code, 0, `HEALTHCHECK: ${health.stdout}${health.stderr}`);

    // Create a project with the image's own CLI, on the running container's data.
    const created = await podman.run([
      'exec',
      'coffer-1',
      'node',
      '/opt/coffer/node_modules/coffer/bin/coffer.js',
      'project',
      'create',
      'shipped',
      '--json',
    ]);
    credentials = JSON.parse(created.stdout);
    const api = new ApiClient(baseUrl, credentials);
    const user = await api.signup('owner@ship.example');
    const requested = await api.call('POST', '/api/v1/file', {
      token: user.token,
      body: { filePath: 'reports/q3.txt', permissionScope: 'user' },
    });
    assert.equal(requested.status, 200, requested.text);
    const put = await fetch(requested.body.putFileUrl, {
      method: 'PUT',
      body: content,
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 200);
    const verified = await api.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
      token: user.token,
      body: { etag: put.headers.get('etag') },
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.meta.ChecksumSHA256, createHash('sha256').update(content).digest('base64'));
    upload = { fileId: requested.body.fileId, email: user.email, password: user.password };
    assert.equal(await download(api, user.token, upload.fileId), content);

    // COFFER_METRICS_TOKEN_FILE: the token came from the mounted secret, without its line break.
    const scrape = (token: string) =>
      fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await scrape(metricsToken), 200);
    assert.equal(await scrape('wrong'), 401);

    // STOPSIGNAL SIGTERM: the service drains and exits 0 within podman's stop timeout.
    const stopped = await stopContainer('coffer-1');
    assert.equal(stopped.exitCode, 0, stopped.logs);
    assert.match(stopped.logs, /shutting down: draining/);
  });

  it('keeps its data on the volume: a new container serves the same project, user and file', async () => {
    assert.ok(upload, 'the first test uploaded a file');
    await startContainer('coffer-2');
    const api = new ApiClient(baseUrl, credentials);
    const login = await api.call('POST', '/api/v1/auth/login', {
      body: { email: upload.email, password: upload.password },
    });
    assert.equal(login.status, 200, login.text);
    assert.equal(await download(api, login.body.token, upload.fileId), content);
    const stopped = await stopContainer('coffer-2');
    assert.equal(stopped.exitCode, 0, stopped.logs);
  });
});

async function download(api: ApiClient, token: string, fileId: string): Promise<string> {
  const link = await api.call('GET', `/api/v1/file/${fileId}?expiresInSeconds=120`, { token });
  assert.equal(link.status, 200, link.text);
  const response = await fetch(link.body.url);
  assert.equal(response.status, 200);
  return response.text();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
