import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import type { Scanner } from '../domain/admission/scanner.ts';

/**
 * The scanner `coffer scan` streams stored bytes to: the scanning part's clamd client over
 * COFFER_SCAN_URL (issue 42, item 1). MERGE: this branch has neither `config.scanUrl` nor
 * `src/admission/clamd-scanner.ts` yet; once both are in, the body becomes
 *
 *     if (config.scanUrl === undefined) throw new ConfigError('coffer scan needs … COFFER_SCAN_URL …');
 *     return new ClamdScanner({ address: toClamdAddress(config.scanUrl), maxBytes: config.scanMaxBytes,
 *       concurrency: 1, timeoutMs: config.scanTimeoutSeconds * 1000, clock: systemClock });
 *
 * (one scan at a time: the command reads versions one by one).
 */
export function openScanner(config: Config): Scanner {
  const scanUrl = (config as Config & { scanUrl?: string }).scanUrl;
  if (!scanUrl)
    throw new ConfigError(
      'coffer scan needs a scanner: set COFFER_SCAN_URL (clamd://host:port or clamd:///path/to/clamd.ctl)',
    );
  throw new ConfigError('coffer scan: this build has no clamd client yet (the scanning part brings it)');
}
