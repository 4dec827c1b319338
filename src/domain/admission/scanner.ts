export type ScanVerdict =
  | { result: 'clean'; engine: string; signatures: string; scannedAt: string }
  | { result: 'infected'; signature: string; engine: string; signatures: string; scannedAt: string };

/**
 * One scan fed by pushes (a PUT's tap): no stream or promise per chunk between the body and
 * the scanner's socket, which is most of what scanning a large upload costs Coffer.
 */
export interface ScanFeed {
  /**
   * Hands a chunk over; `ready` runs once the scanner takes the next (its socket drained). A
   * scanner that failed or already answered takes the rest without sending it.
   */
  write(chunk: Uint8Array, ready: () => void): void;
  /** No more bytes: the verdict; throws SCANNER_UNAVAILABLE when the scanner could not answer. */
  end(): Promise<ScanVerdict>;
  /** Gives the scan up (the upload failed or went past the scanner's limit). */
  abort(): void;
}

export interface Scanner {
  /** Streams the bytes to the scanner; throws SCANNER_UNAVAILABLE when it cannot answer. */
  scan(bytes: AsyncIterable<Uint8Array> | NodeJS.ReadableStream, signal?: AbortSignal): Promise<ScanVerdict>;
  /** A scan the caller pushes bytes to; waits for a free slot (COFFER_SCAN_CONCURRENCY). */
  open(signal?: AbortSignal): Promise<ScanFeed>;
  /** The largest stream the scanner takes (its StreamMaxLength). */
  readonly maxBytes: number;
}
