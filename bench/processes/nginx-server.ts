import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildServer } from './child-server.ts';

/** Where scripts/fetch-nginx.sh unpacks Debian's nginx package. */
const unpackedNginx = path.resolve(import.meta.dirname, '../.tools/nginx/usr/sbin/nginx');
const fetchNginxScript = path.resolve(import.meta.dirname, '../../scripts/fetch-nginx.sh');

/**
 * The nginx binary: installed (on PATH, in /usr/sbin), or else Debian's package unpacked for the
 * bench by scripts/fetch-nginx.sh (run here when need be); undefined when neither can be had.
 */
export function findNginx(): string | undefined {
  const found = findNginxBinary();
  if (found) return found;
  spawnSync('bash', [fetchNginxScript], { stdio: 'inherit' });
  return findNginxBinary();
}

function findNginxBinary(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx', unpackedNginx]) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/**
 * nginx serving `root` as static files: the reference a C server with sendfile reaches on the
 * same machine. One worker (the machine has two cores, one of them the load generator's),
 * no access log, everything under `prefixDir` so it needs no system configuration.
 */
export async function startNginx(options: {
  binary: string;
  root: string;
  prefixDir: string;
}): Promise<ChildServer> {
  await mkdir(options.prefixDir, { recursive: true });
  const port = await findFreePort();
  const config = path.join(options.prefixDir, 'nginx.conf');
  // As root, nginx's workers would run as nobody, which cannot read the 0700 temp data dir.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  await writeFile(
    config,
    `${user}
daemon off;
worker_processes 1;
pid ${path.join(options.prefixDir, 'nginx.pid')};
error_log ${path.join(options.prefixDir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${options.prefixDir}/body;
  proxy_temp_path ${options.prefixDir}/proxy;
  fastcgi_temp_path ${options.prefixDir}/fastcgi;
  uwsgi_temp_path ${options.prefixDir}/uwsgi;
  scgi_temp_path ${options.prefixDir}/scgi;
  default_type application/octet-stream;
  server { listen 127.0.0.1:${port}; root ${options.root}; }
}
`,
  );
  const child = spawn(options.binary, ['-p', options.prefixDir, '-c', config], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGQUIT'); // graceful: the master waits for its worker
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      await fetch(`${url}/`).then(
        () => true,
        () => false,
      )
    )
      return { url, pid: child.pid!, stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error(`nginx did not start; see ${path.join(options.prefixDir, 'error.log')}`);
}

async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}
