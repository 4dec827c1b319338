import { isAppError } from '../../../errors/app-error.ts';
import { storeNotReady } from '../../../errors/errors.ts';
import type { RouteRegistrar } from '../../route-context.ts';

/**
 * GET /healthz: the process serves. GET /readyz: the database and the blob store answer and
 * can take writes (each check writes a small probe): 503 naming the store otherwise.
 */
export const health: RouteRegistrar = (app, services) => {
  const checkStores = sharedWhileRunning(async () => {
    const [database, blobs] = await Promise.allSettled([services.database.check(), services.blobs.check()]);
    if (database.status === 'rejected') throw notReady('database', database.reason);
    if (blobs.status === 'rejected') throw notReady('blob store', blobs.reason);
  });
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    await checkStores();
    return { status: 'ok' };
  });
};

/**
 * Callers that arrive while a check runs share its answer. The probes write one fixed key (and
 * one fixed file beside SQLite): run side by side, a probe's delete could remove another's
 * write mid-flight and fail a healthy store; and a flood of /readyz costs one probe at a time.
 */
function sharedWhileRunning(check: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  };
}

function notReady(store: string, reason: unknown) {
  const full = isAppError(reason) && reason.code === 'STORAGE_FULL';
  return storeNotReady(full ? `${store} (full: it cannot take writes)` : store, reason);
}
