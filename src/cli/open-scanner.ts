import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import type { Scanner } from '../domain/admission/scanner.ts';

/**
 * The scanner `coffer scan` streams stored bytes to: the scanning part's clamd client over
 * COFFER_SCAN_URL (issue 42, item 1). MERGE: until that part's `src/admission/clamd-scanner.ts`
 * and `config.scanUrl` are on this branch this refuses; the lead wires the one line below.
 */
export function openScanner(config: Config): Scanner {
  const scanUrl = (config as Config & { scanUrl?: string }).scanUrl;
  if (!scanUrl)
    throw new ConfigError(
      'coffer scan needs a scanner: set COFFER_SCAN_URL (clamd://host:port or clamd:///path/to/clamd.ctl)',
    );
  throw new ConfigError('coffer scan: this build has no clamd client yet (the scanning part brings it)');
}
