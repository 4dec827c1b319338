/** Entry point of `coffer serve`: load config → build services → build app → listen → drain on SIGTERM. */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { buildApp } from './app.ts';
import { ensureDefaultProject } from './cli/default-project.ts';
import type { Config } from './config/config.ts';
import { buildServices, openStores } from './services.ts';
import { startBlobCollection } from './start-blob-collection.ts';

/** Starts the server (or, with --workers N, a primary that forks N of them) and resolves once it has stopped. */
export async function serve(config: Config): Promise<void> {
  assertSafeBind(config);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  const services = await buildServices(config, {
    log: (line) => console.error(JSON.stringify({ level: 40, time: Date.now(), msg: line })),
  });
  const tls =
    config.tlsCert && config.tlsKey
      ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) }
      : undefined;
  const app = await buildApp(services, { tls });
  if (cluster.isPrimary)
    await ensureDefaultProject(services.repositories.projects, config.dataDir, (line) => app.log.info(line));
  const address = await app.listen({ host: config.host, port: config.port });
  services.publicUrl.value = config.publicUrl?.replace(/\/+$/, '') ?? address;
  if (cluster.isPrimary)
    app.log.info({ url: services.publicUrl.value }, `Coffer ready at ${services.publicUrl.value}`);
  const collection = startBlobCollection(services, app.log);
  await new Promise<void>((resolve) => {
    const stop = async () => {
      app.log.info('shutting down: draining connections');
      await collection?.stop();
      await app.close();
      await services.close();
      // A worker's channel to the primary would keep it alive: let it go.
      if (cluster.isWorker) process.disconnect?.();
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/** With --workers N: prepare the stores once, fork N servers sharing the port, restart any that dies. */
async function runPrimary(config: Config): Promise<void> {
  const { database, repositories } = await openStores(config, (line) => console.error(line));
  await ensureDefaultProject(repositories.projects, config.dataDir, (line) => console.log(line));
  await database.close();
  let stopping = false;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited (${code}); starting another`);
    cluster.fork();
  });
  let ready = 0;
  cluster.on('listening', (_worker, address) => {
    ready += 1;
    if (ready === config.workers) {
      const url =
        config.publicUrl ??
        `${config.tlsCert ? 'https' : 'http'}://${formatHost(config.host)}:${address.port}`;
      console.log(
        JSON.stringify({
          level: 30,
          time: Date.now(),
          url,
          workers: config.workers,
          msg: `Coffer ready at ${url}`,
        }),
      );
    }
  });
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      let alive = workers.length;
      if (alive === 0) resolve();
      cluster.on('exit', () => {
        alive -= 1;
        if (alive === 0) resolve();
      });
      for (const worker of workers) worker?.process.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/**
 * DESIGN §4, barrier 1: plain HTTP only on loopback. Anything reachable from elsewhere needs
 * TLS here or a TLS proxy in front (--trust-proxy, which then insists on X-Forwarded-Proto).
 */
function assertSafeBind(config: Config): void {
  if (config.tlsCert || config.trustProxy || isLoopback(config.host)) return;
  throw new Error(
    `refusing to serve plain HTTP on ${config.host}: file links and tokens would cross the network in clear text. ` +
      'Use --tls-cert/--tls-key, or --trust-proxy behind a TLS proxy, or bind 127.0.0.1.',
  );
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

function formatHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
