import type { ScanVerdict } from './scanner.ts';

/**
 * What `meta.scan` shows of a version's bytes (issue 42): the scanner's verdict, or `skipped`
 * when the bytes were admitted unscanned (`oversize`: past the scanner's limit under
 * `scanOversize=allow`; `unavailable`: the scanner did not answer under COFFER_SCAN_FAIL_OPEN).
 */
export type ScanRecord =
  | ScanVerdict
  | { result: 'skipped'; reason: 'oversize' | 'unavailable'; scannedAt: string };

/** The JSON column's text → the record; null for null or anything unreadable. */
export function toScanRecord(text: string | null): ScanRecord | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as ScanRecord;
    return typeof value === 'object' && value !== null && typeof value.result === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function toScanText(scan: ScanRecord | null | undefined): string | null {
  return scan ? JSON.stringify(scan) : null;
}
