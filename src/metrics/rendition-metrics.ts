import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Image renditions (issue 21): renders, cache hits, refusals, bytes, and the render queue. */
export class RenditionMetrics {
  readonly #rendered: Counter;
  readonly #renderSeconds: Histogram;
  readonly #renderedBytes: Counter;
  readonly #requests: Counter<'cache'>;
  readonly #refused: Counter<'code'>;
  readonly #servedBytes: Counter;
  readonly #registry: Registry;

  constructor(registry: Registry) {
    this.#registry = registry;
    const registers = [registry];
    this.#rendered = new Counter({
      name: 'coffer_renditions_rendered_total',
      help: 'Renditions rendered and stored',
      registers,
    });
    this.#renderSeconds = new Histogram({
      name: 'coffer_rendition_render_seconds',
      help: 'Time one render took (decode, resize, encode), off the event loop',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#renderedBytes = new Counter({
      name: 'coffer_rendition_stored_bytes_total',
      help: 'Bytes of renditions written to the blob store',
      registers,
    });
    this.#requests = new Counter({
      name: 'coffer_rendition_requests_total',
      help: 'Rendition links followed, by whether the rendition was already stored (hit) or had to be rendered (miss)',
      labelNames: ['cache'],
      registers,
    });
    this.#refused = new Counter({
      name: 'coffer_renditions_refused_total',
      help: 'Renditions refused, by code (UNSUPPORTED_MEDIA, IMAGE_TOO_LARGE, IMAGE_UNREADABLE, RENDER_BUSY, RATE_LIMITED)',
      labelNames: ['code'],
      registers,
    });
    this.#servedBytes = new Counter({
      name: 'coffer_rendition_served_bytes_total',
      help: 'Bytes the gateway served in completed rendition answers',
      registers,
    });
  }

  /** The render queue's load at each scrape (this process's). */
  watchQueue(load: () => { running: number; waiting: number }): void {
    new Gauge({
      name: 'coffer_rendition_queue',
      help: 'Renders running and waiting for a slot in this process',
      labelNames: ['state'],
      registers: [this.#registry],
      collect() {
        const { running, waiting } = load();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  rendered(seconds: number, sizeBytes: number): void {
    this.#rendered.inc();
    this.#renderSeconds.observe(seconds);
    this.#renderedBytes.inc(sizeBytes);
  }

  requested(cached: boolean): void {
    this.#requests.inc({ cache: cached ? 'hit' : 'miss' });
  }

  refused(code: string): void {
    this.#refused.inc({ code });
  }

  served(sizeBytes: number): void {
    this.#servedBytes.inc(sizeBytes);
  }
}
