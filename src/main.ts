/** Entry point of `coffer serve`: a supervising primary, and the server processes it runs. */
import cluster from 'node:cluster';
import type { Config } from './config/config.ts';
import { ConfigError } from './config/config-error.ts';
import { isLoopback } from './config/listen-address.ts';
import { resolvePublicUrl } from './config/public-url.ts';
import { readTlsFiles } from './config/read-tls-files.ts';
import { logStartWarning } from './config/start-log.ts';

/**
 * Starts the service and resolves once it has stopped. The process `coffer serve` starts is
 * the supervising primary (src/supervisor/); the servers run in the worker processes it forks.
 */
export async function serve(config: Config): Promise<void> {
  assertSafeBind(config);
  if (cluster.isPrimary) {
    // Before any worker forks: a bad file stops the start once, with a line naming it.
    const tls = readTlsFiles(config);
    const publicUrl = resolvePublicUrl(config, tls?.certificate);
    if (publicUrl.warning) logStartWarning(publicUrl.warning);
    // The primary never loads the HTTP app: it starts sooner and stays small.
    return (await import('./supervisor/supervisor.ts')).runSupervisor(config, publicUrl);
  }
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
  (await import('./supervisor/worker-heap.ts')).tuneWorkerHeap();
  const [
    { buildApp },
    { buildServices },
    { serveFromPrimary },
    { shareWritesWithSiblings },
    { startBlobCollection },
    { startUnverifiedSweep },
    { startVersionSweep },
    { startTrashSweep },
    { startResumableSweep },
    { startImageSummaries },
    { startEventDelivery },
    { startMailDelivery },
  ] = await Promise.all([
    import('./app.ts'),
    import('./services.ts'),
    import('./supervisor/serve-from-primary.ts'),
    import('./supervisor/write-relay.ts'),
    import('./start-blob-collection.ts'),
    import('./start-unverified-sweep.ts'),
    import('./start-version-sweep.ts'),
    import('./start-trash-sweep.ts'),
    import('./start-resumable-sweep.ts'),
    import('./start-image-summaries.ts'),
    import('./start-event-delivery.ts'),
    import('./start-mail-delivery.ts'),
  ]);
  const services = await buildServices(config, { log: logStartWarning, metricsFromPrimary: true });
  const tls = readTlsFiles(config);
  const app = await buildApp(services, { tls: tls && { cert: tls.cert, key: tls.key } });
  const { collectBlobs, shareWrites } = await serveFromPrimary(app, services.publicUrl);
  // A change answers once every sibling worker has it (write-relay.ts): nothing they kept outlives it.
  if (shareWrites) shareWritesWithSiblings(services.database.writes);
  const collection = collectBlobs ? startBlobCollection(services, app.log) : undefined;
  // The same one worker per node sweeps expired never-verified records.
  const sweep = collectBlobs ? startUnverifiedSweep(services, app.log) : undefined;
  // And earlier versions past their retention.
  const versionSweep = collectBlobs ? startVersionSweep(services, app.log) : undefined;
  // And purges trash past its project's retention (issue 38).
  const trashSweep = collectBlobs ? startTrashSweep(services, app.log) : undefined;
  // And expired resumable uploads.
  const resumableSweep = collectBlobs ? startResumableSweep(services, app.log) : undefined;
  // And summarizes verified images (dimensions, placeholder).
  const summaries = collectBlobs ? startImageSummaries(services, app.log) : undefined;
  // And delivers events to webhooks.
  const delivery = collectBlobs ? startEventDelivery(services, app.log) : undefined;
  // And sends queued mail.
  const mailDelivery = collectBlobs ? startMailDelivery(services, app.log) : undefined;
  await new Promise<void>((resolve) => {
    let stopping = false;
    // Ctrl-C signals the primary and its workers together; the primary then sends SIGTERM too.
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      app.log.info('shutting down: draining connections');
      await collection?.stop();
      await sweep?.stop();
      await versionSweep?.stop();
      await trashSweep?.stop();
      await resumableSweep?.stop();
      await summaries?.stop();
      await delivery?.stop();
      await mailDelivery?.stop();
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
  throw new ConfigError(
    `--host ${config.host}: refusing to serve plain HTTP on ${config.host}, file links and tokens would cross the network in clear text; ` +
      'use --tls-cert/--tls-key, or --trust-proxy behind a TLS proxy, or bind 127.0.0.1',
  );
}
