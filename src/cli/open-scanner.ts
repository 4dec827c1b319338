import { ClamdScanner } from '../admission/clamd-scanner.ts';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { toClamdAddress } from '../config/settings/scan-settings.ts';
import type { Scanner } from '../domain/admission/scanner.ts';
import { systemClock } from '../domain/clock.ts';

/**
 * The scanner `coffer scan` streams stored bytes to: ClamAV's daemon at COFFER_SCAN_URL, as the
 * server's upload gate uses it (wiring/scan-services.ts), one scan at a time: the command reads
 * versions one by one.
 */
export function openScanner(config: Config): Scanner {
  // The loaded config checked its form (scan-settings.ts): undefined here means it is not set.
  const address = config.scanUrl === undefined ? undefined : toClamdAddress(config.scanUrl);
  if (address === undefined)
    throw new ConfigError(
      'coffer scan needs a scanner: set COFFER_SCAN_URL (clamd://host:port or clamd:///path/to/clamd.ctl)',
    );
  return new ClamdScanner({
    address,
    maxBytes: config.scanMaxBytes,
    concurrency: 1,
    timeoutMs: config.scanTimeoutSeconds * 1000,
    clock: systemClock,
  });
}
