import type { Worker } from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';

/**
 * `GET /metrics` with several workers: whichever worker a scrape reaches asks the primary,
 * which gathers every worker's registry over the cluster channel (prom-client's
 * AggregatorRegistry: counters and histograms summed) and answers the text, so a scrape sees
 * the whole node whichever worker serves it.
 */
type MetricsRequest = { type: 'coffer:metrics-request'; id: number };
type MetricsResponse = { type: 'coffer:metrics-response'; id: number; text?: string; error?: string };

const isRequest = (message: unknown): message is MetricsRequest =>
  (message as MetricsRequest | null)?.type === 'coffer:metrics-request';
const isResponse = (message: unknown): message is MetricsResponse =>
  (message as MetricsResponse | null)?.type === 'coffer:metrics-response';

/** The longest a scrape waits for the primary (prom-client itself gives workers 5 s). */
const answerTimeoutMs = 10_000;

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** In the primary: answers each worker's request with the metrics of every worker. */
export function answerMetricsRequests(worker: Worker): void {
  aggregator ??= new AggregatorRegistry();
  const registry = aggregator;
  worker.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const reply = (answer: Omit<MetricsResponse, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: 'coffer:metrics-response', id: message.id, ...answer });
    };
    registry.clusterMetrics().then(
      (text: string) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/** In a worker: shares its registry with the primary; answers the node's metrics text. */
export function metricsFromPrimary(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener that answers the primary's collection.
  new AggregatorRegistry();
  const pending = new Map<number, (answer: MetricsResponse) => void>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (isResponse(message)) pending.get(message.id)?.(message);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(
        () => settle({ type: 'coffer:metrics-response', id, error: 'timed out' }),
        answerTimeoutMs,
      );
      function settle(answer: MetricsResponse) {
        clearTimeout(timer);
        pending.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`the primary could not gather the workers' metrics: ${answer.error}`));
      }
      pending.set(id, settle);
      const request: MetricsRequest = { type: 'coffer:metrics-request', id };
      process.send?.(request);
    });
}
