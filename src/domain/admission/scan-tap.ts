import { Transform, type TransformCallback } from 'node:stream';
import { tooLargeToScan } from '../../errors/admission-errors.ts';
import { isAppError } from '../../errors/app-error.ts';
import type { Clock } from '../clock.ts';
import type { ScanRecord } from './scan-record.ts';
import type { ScanFeed, Scanner, ScanVerdict } from './scanner.ts';

/** How a project's uploads are scanned (ScanGate.policyOf; undefined when they are not). */
export type ScanPolicy = { scanner: Scanner; oversize: 'refuse' | 'allow'; failOpen: boolean; clock: Clock };

/**
 * A pass-through on a PUT's way to the store that hands every chunk to the scanner as well:
 * the one read of the body feeds both, and a scanner slower than the client slows the upload
 * (a chunk passes once the scanner's socket has room for it) rather than filling memory. The
 * chunks are pushed straight to the scanner's socket (ScanFeed): no second stream between
 * them, whose reads would copy and whose per-chunk promises cost more than the socket does.
 * Past the scanner's limit it refuses the body (FILE_TOO_LARGE) or, when the project allows
 * oversize files, stops feeding the scanner. A scanner that fails only loses its verdict: the
 * upload goes on and verify reads the stored bytes back.
 */
export class ScanTap extends Transform {
  readonly #policy: ScanPolicy;
  /** The scan, once the scanner gave it a slot; null when it could not be opened. */
  #feed: ScanFeed | null | undefined;
  readonly #opening: Promise<ScanFeed | null>;
  #verdict: Promise<ScanVerdict | null> | undefined;
  #sizeBytes = 0;
  #oversize = false;

  constructor(policy: ScanPolicy) {
    super();
    this.#policy = policy;
    this.#opening = policy.scanner.open().then(
      (feed) => {
        // The body failed or outgrew the scanner while this scan waited for its slot.
        if (this.destroyed || this.#oversize) feed.abort();
        this.#feed = feed;
        return feed;
      },
      (error: unknown) => {
        this.#feed = null;
        if (isAppError(error) && error.code === 'SCANNER_UNAVAILABLE') return null;
        throw error;
      },
    );
    this.#opening.catch(() => {});
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#sizeBytes += chunk.length;
    const { maxBytes } = this.#policy.scanner;
    if (this.#sizeBytes > maxBytes && !this.#oversize) {
      if (this.#policy.oversize === 'refuse') {
        callback(tooLargeToScan(maxBytes));
        return;
      }
      this.#oversize = true;
      this.#feed?.abort();
    }
    const pass = () => callback(null, chunk);
    if (this.#oversize || this.#feed === null) pass();
    else if (this.#feed) this.#feed.write(chunk, pass);
    else this.#opening.then((feed) => (feed && !this.#oversize ? feed.write(chunk, pass) : pass()), callback);
  }

  override _flush(callback: TransformCallback): void {
    // Asked at the body's end, whether or not verify reads it: a scan always ends, and frees its slot.
    if (!this.#oversize) this.#verdict = this.#opening.then((feed) => feed?.end() ?? null);
    this.#verdict?.catch(() => {});
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (error || !this.#verdict) this.#feed?.abort();
    callback(error);
  }

  /**
   * The verdict once the body has ended: null when the scanner could not answer (verify scans
   * the stored bytes then), skipped when the body was past the scanner's limit.
   */
  async verdict(): Promise<ScanRecord | null> {
    if (this.#oversize)
      return { result: 'skipped', reason: 'oversize', scannedAt: this.#policy.clock.now().toISOString() };
    try {
      return (await this.#verdict) ?? null;
    } catch (error) {
      if (isAppError(error) && error.code === 'SCANNER_UNAVAILABLE') return null;
      throw error;
    }
  }
}
