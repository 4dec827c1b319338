import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { tooLargeToScan } from '../../errors/admission-errors.ts';
import { isAppError } from '../../errors/app-error.ts';
import type { Clock } from '../clock.ts';
import type { ScanRecord } from './scan-record.ts';
import type { Scanner, ScanVerdict } from './scanner.ts';

/** How a project's uploads are scanned (ScanGate.policyOf; undefined when they are not). */
export type ScanPolicy = { scanner: Scanner; oversize: 'refuse' | 'allow'; failOpen: boolean; clock: Clock };

/** What the scanner's side may hold unread before the upload waits for it. */
const feedHighWaterMark = 256 * 1024;

/**
 * A pass-through on a PUT's way to the store that hands every chunk to the scanner as well:
 * the one read of the body feeds both, and a scanner slower than the client slows the upload
 * (its side drains before the next chunk passes) rather than filling memory. Past the
 * scanner's limit it refuses the body (FILE_TOO_LARGE) or, when the project allows oversize
 * files, stops feeding the scanner. A scanner that fails only loses its verdict: the upload
 * goes on and verify reads the stored bytes back.
 */
export class ScanTap extends Transform {
  readonly #policy: ScanPolicy;
  readonly #feed = new PassThrough({ highWaterMark: feedHighWaterMark });
  readonly #scan: Promise<ScanVerdict>;
  #sizeBytes = 0;
  #oversize = false;

  constructor(policy: ScanPolicy) {
    super();
    this.#policy = policy;
    // The scanner reads the feed and destroys it when it fails; its error is the scan's.
    this.#feed.on('error', () => {});
    this.#scan = policy.scanner.scan(this.#feed);
    this.#scan.catch(() => {});
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
      this.#feed.destroy();
    }
    if (this.#feed.destroyed || this.#feed.write(chunk)) {
      callback(null, chunk);
      return;
    }
    const go = () => {
      this.#feed.off('drain', go);
      this.#feed.off('close', go);
      callback(null, chunk);
    };
    this.#feed.on('drain', go);
    this.#feed.on('close', go);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#feed.destroyed) this.#feed.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (error) this.#feed.destroy();
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
      return await this.#scan;
    } catch (error) {
      if (isAppError(error) && error.code === 'SCANNER_UNAVAILABLE') return null;
      throw error;
    }
  }
}
