/** Entry point of `coffer serve`: load config → build services → build app → listen → drain on SIGTERM. */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Config } from './config/config.ts';

/**
 * Starts the service and resolves once it has stopped. The process `coffer serve` starts is
 * the supervising primary (src/supervisor/); the servers run in the worker processes it forks.
 */
export async function serve(config: Config): Promise<void> {
  assertSafeBind(config);
  // The primary never loads the HTTP app: it starts sooner and stays small.
  if (cluster.isPrimary) return (await import('./supervisor/supervisor.ts')).runSupervisor(config);
  try {
    await serveWorker(config);
  } catch (error) {
    // A worker that cannot serve exits, once the CLI has said why, and the primary replaces
    // it: neither its channel to the primary nor anything it opened may keep it alive.
    setImmediate(() => process.exit(1));
    throw error;
  }
}

/** One server process: builds the services and the app, serves what the primary hands over. */
async function serveWorker(config: Config): Promise<void> {
  const [{ buildApp }, { buildServices }, { serveFromPrimary }] = await Promise.all([
    import('./app.ts'),
    import('./services.ts'),
    import('./supervisor/serve-from-primary.ts'),
  ]);
  const services = await buildServices(config, {
    log: (line) => console.error(JSON.stringify({ level: 40, time: Date.now(), msg: line })),
  });
  const tls =
    config.tlsCert && config.tlsKey
      ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) }
      : undefined;
  const app = await buildApp(services, { tls });
  await serveFromPrimary(app, services.publicUrl);
  await new Promise<void>((resolve) => {
    let stopping = false;
    // Ctrl-C signals the primary and its workers together; the primary then sends SIGTERM too.
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      app.log.info('shutting down: draining connections');
      await app.close();
      await services.close();
      // The channel to the primary would keep this worker alive: let it go.
      process.disconnect?.();
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
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
