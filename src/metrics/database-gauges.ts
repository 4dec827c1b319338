import { Gauge, type Registry } from 'prom-client';

/**
 * Gauges read from the database at each scrape, one query for all of them: the whole
 * deployment's numbers, so every worker reports the same (`max`, not a sum). A database that
 * does not answer leaves them as they were.
 */
export function registerDatabaseGauges<T extends Record<string, number>>(
  registry: Registry,
  measure: () => Promise<T>,
  gauges: readonly (readonly [name: string, help: string, field: keyof T])[],
): void {
  let reading: Promise<T | undefined> | undefined;
  const read = () => {
    reading ??= measure()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
  for (const [name, help, field] of gauges) {
    new Gauge({
      name,
      help,
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const measured = await read();
        if (measured) this.set(measured[field]!);
      },
    });
  }
}
