import { ConfigError } from '../config-error.ts';
import type { Setting } from '../setting.ts';

/** The malware scanner uploads pass before verify (issue 42): ClamAV's daemon, over INSTREAM. */
export const scanSettings = {
  scanUrl: {
    env: 'COFFER_SCAN_URL',
    kind: 'string',
    doc: "ClamAV's daemon, `clamd://host:port` or `clamd:///path/to/clamd.ctl`: every upload is scanned before verify (a project's `scan=off` turns it off). Unset: nothing is scanned.",
  },
  scanFailOpen: {
    env: 'COFFER_SCAN_FAIL_OPEN',
    kind: 'boolean',
    defaultValue: false,
    doc: 'When the scanner cannot answer, verify admits the file unscanned (`meta.scan.result` "skipped") instead of answering 503 SCANNER_UNAVAILABLE.',
  },
  scanConcurrency: {
    env: 'COFFER_SCAN_CONCURRENCY',
    kind: 'integer',
    defaultValue: 4,
    min: 1,
    max: 1000,
    doc: "Scans running at once per process (keep it within clamd's MaxThreads); more uploads wait their turn, none is dropped.",
  },
  scanMaxBytes: {
    env: 'COFFER_SCAN_MAX_BYTES',
    kind: 'integer',
    defaultValue: 26214400,
    min: 1,
    max: 4294967295,
    doc: "The scanner's StreamMaxLength (clamd.conf; keep MaxFileSize and MaxScanSize at least as large): a larger upload is refused (413 FILE_TOO_LARGE) unless its project's `scanOversize=allow`.",
  },
  scanTimeoutSeconds: {
    env: 'COFFER_SCAN_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 1,
    max: 3600,
    doc: "How long the scanner may stay silent (connecting, taking bytes, answering) before the upload's verify answers 503 SCANNER_UNAVAILABLE.",
  },
} as const satisfies Record<string, Setting>;

/** COFFER_SCAN_URL's form, checked in loadConfig so that `serve` refuses to start on a typo. */
export function assertScanSettings(values: { scanUrl?: unknown }): void {
  const text = values.scanUrl as string | undefined;
  if (text !== undefined && toClamdAddress(text) === undefined)
    throw new ConfigError(
      `COFFER_SCAN_URL=${JSON.stringify(text)}: must be clamd://host:port or clamd:///path/to/clamd.ctl`,
    );
}

/** Where clamd listens: a TCP port or a Unix socket. */
export type ClamdAddress = { host: string; port: number } | { path: string };

export function toClamdAddress(text: string): ClamdAddress | undefined {
  const url = URL.parse(text);
  if (url?.protocol !== 'clamd:' || url.search || url.hash) return undefined;
  if (url.hostname === '')
    return url.pathname.length > 1 ? { path: decodeURIComponent(url.pathname) } : undefined;
  const port = Number(url.port);
  if (!Number.isInteger(port) || port < 1 || (url.pathname !== '' && url.pathname !== '/')) return undefined;
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
}
