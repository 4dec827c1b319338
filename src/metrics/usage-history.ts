/** One sample of the node's traffic totals, as `/metrics` counts them. */
export type UsageSample = {
  /** Unix milliseconds. */
  at: number;
  uploadedBytes: number;
  downloadedBytes: number;
  uploadsVerified: number;
  downloadLinks: number;
};

/** The counters a sample reads from the exposition text, by the field they fill. */
const counters = {
  uploadedBytes: /^coffer_uploaded_bytes_total(?:\{\})? (\S+)$/m,
  downloadedBytes: /^coffer_downloaded_bytes_total(?:\{\})? (\S+)$/m,
  uploadsVerified: /^coffer_uploads_verified_total(?:\{\})? (\S+)$/m,
  downloadLinks: /^coffer_links_issued_total\{kind="download"\} (\S+)$/m,
} as const;

/**
 * Uploads and downloads over time for the console's usage page: every `intervalMs` it reads the
 * same counters a scrape of `/metrics` reads (the node's, whichever worker samples), keeping the
 * last `keep` samples in memory. A restart starts the history again, as it does the counters;
 * a long history is Prometheus's job.
 */
export class UsageHistory {
  readonly intervalMs: number;
  readonly #exposition: () => Promise<string>;
  readonly #keep: number;
  readonly #samples: UsageSample[] = [];
  readonly #timer: NodeJS.Timeout;
  #stopped = false;

  constructor(options: { exposition: () => Promise<string>; intervalMs?: number; keep?: number }) {
    this.#exposition = options.exposition;
    this.intervalMs = options.intervalMs ?? 60_000;
    this.#keep = options.keep ?? 24 * 60;
    this.#timer = setInterval(() => void this.#record(), this.intervalMs);
    this.#timer.unref();
    void this.#recordFirst();
  }

  /** The samples kept, oldest first, and one taken now. */
  async samples(): Promise<UsageSample[]> {
    return [...this.#samples, await this.#sample()];
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  /**
   * The start's sample, tried again each second until the counters can be read: a worker
   * starts sampling before its primary may answer (a busy machine), and the history should
   * still begin at the start rather than one interval later.
   */
  async #recordFirst(): Promise<void> {
    while (!this.#stopped && !(await this.#record()))
      await new Promise((resolve) => setTimeout(resolve, 1000).unref());
  }

  /** Answers whether a sample was kept. */
  async #record(): Promise<boolean> {
    // A sample that cannot be read (the primary busy) is left out: the chart shows a gap.
    const sample = await this.#sample().catch(() => undefined);
    if (!sample || this.#stopped) return false;
    this.#samples.push(sample);
    if (this.#samples.length > this.#keep) this.#samples.shift();
    return true;
  }

  async #sample(): Promise<UsageSample> {
    const text = await this.#exposition();
    const read = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    return {
      at: Date.now(),
      uploadedBytes: read(counters.uploadedBytes),
      downloadedBytes: read(counters.downloadedBytes),
      uploadsVerified: read(counters.uploadsVerified),
      downloadLinks: read(counters.downloadLinks),
    };
  }
}
