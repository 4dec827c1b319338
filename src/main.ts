/** Entry point of `coffer serve`: load config → build services → build app → listen → drain on SIGTERM. */
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { ensureDefaultProject } from './cli/default-project.ts';
import { logStartWarning } from './cli/start-log.ts';
import type { Config } from './config/config.ts';
import { ConfigError } from './config/config-error.ts';
import { isLoopback, toListenError } from './config/listen-address.ts';
import { type PublicUrl, resolvePublicUrl } from './config/public-url.ts';
import { readTlsFiles } from './config/read-tls-files.ts';
import { buildServices, openStores } from './services.ts';
import { startBlobCollection } from './start-blob-collection.ts';

/** Starts the server (or, with --workers N, a primary that forks N of them) and resolves once it has stopped. */
export async function serve(config: Config): Promise<void> {
  assertSafeBind(config);
  // Before any worker forks: a bad file stops the start once, with a line naming it.
  const tls = readTlsFiles(config);
  const publicUrl = resolvePublicUrl(config, tls?.certificate);
  if (publicUrl.warning && cluster.isPrimary) logStartWarning(publicUrl.warning);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, publicUrl);
  const services = await buildServices(config, { log: logStartWarning });
  const app = await buildApp(services, { tls: tls && { cert: tls.cert, key: tls.key } });
  if (cluster.isPrimary)
    await ensureDefaultProject(services.repositories.projects, config.dataDir, (line) => app.log.info(line));
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await services.close();
    throw toListenError(error, config);
  }
  services.publicUrl.value = publicUrl.at((app.server.address() as AddressInfo).port);
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
async function runPrimary(config: Config, publicUrl: PublicUrl): Promise<void> {
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
      const url = publicUrl.at(address.port);
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
  throw new ConfigError(
    `--host ${config.host}: refusing to serve plain HTTP on ${config.host}, file links and tokens would cross the network in clear text; ` +
      'use --tls-cert/--tls-key, or --trust-proxy behind a TLS proxy, or bind 127.0.0.1',
  );
}
