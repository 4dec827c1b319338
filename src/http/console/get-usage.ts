import type { RouteRegistrar } from '../route-context.ts';

/**
 * GET /console/api/usage: every project's files and bytes (the usage table the quotas read) and
 * this node's uploads and downloads over the last day (samples of the `/metrics` counters).
 */
export const getUsage: RouteRegistrar = (app, services) => {
  app.get('/usage', { schema: { hide: true } }, async () => {
    const [projects, samples] = await Promise.all([
      services.repositories.storageUsage.listProjects(),
      services.usageHistory.samples(),
    ]);
    return { projects, traffic: { intervalSeconds: services.usageHistory.intervalMs / 1000, samples } };
  });
};
