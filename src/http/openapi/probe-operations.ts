import type { Operation } from './operation.ts';

/** The operator's probes and pages: home, liveness, readiness, metrics (operations.ts merges them). */
export const probeOperations: Record<string, Operation> = {
  'GET /': {
    operationId: 'homePage',
    description:
      "A small HTML page for people who open the server's address, linking the console and this reference. Not for programs.",
    summary: 'A page pointing to the console and the API reference',
    access: 'public',
    errors: [],
    success: { status: 200, description: 'A small HTML page (text/html) linking /console and /docs' },
  },
  'GET /healthz': {
    operationId: 'health',
    description:
      'Answers 200 while the process serves, without touching the stores: a liveness probe (restart the process when it fails).',
    summary: 'Liveness: the process serves',
    access: 'public',
    errors: [],
    success: { status: 200, description: 'The process serves' },
  },
  'GET /readyz': {
    operationId: 'ready',
    description:
      'Answers 200 while the database and the blob store answer and take writes, else 503 naming the store: a readiness probe (send traffic only while it passes).',
    summary: 'Readiness: the stores answer and take writes',
    access: 'public',
    errors: [],
    success: { status: 200, description: 'The database and the blob store answer and take writes' },
  },
  'GET /metrics': {
    operationId: 'metrics',
    description:
      "The node's metrics in Prometheus text format. With COFFER_METRICS_TOKEN set, send it as a bearer token; without it, only a direct loopback client may scrape.",
    summary: 'Prometheus metrics of the node',
    access: 'metrics',
    errors: ['AUTH_REQUIRED', 'INVALID_TOKEN', 'ACCESS_DENIED'],
    success: { status: 200, description: 'Prometheus text format 0.0.4' },
  },
};
