export type ScanVerdict =
  | { result: 'clean'; engine: string; signatures: string; scannedAt: string }
  | { result: 'infected'; signature: string; engine: string; signatures: string; scannedAt: string };
export interface Scanner {
  /** Streams the bytes to the scanner; throws SCANNER_UNAVAILABLE when it cannot answer. */
  scan(bytes: AsyncIterable<Uint8Array> | NodeJS.ReadableStream, signal?: AbortSignal): Promise<ScanVerdict>;
  /** The largest stream the scanner takes (its StreamMaxLength). */
  readonly maxBytes: number;
}
