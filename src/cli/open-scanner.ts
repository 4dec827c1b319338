import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import type { Scanner } from '../domain/admission/scanner.ts';
import { systemClock } from '../domain/clock.ts';
import { openClamdScanner } from '../wiring/scan-services.ts';

/**
 * The scanner `coffer scan` streams stored bytes to: ClamAV's daemon at COFFER_SCAN_URL, as the
 * server's upload gate uses it, one scan at a time (the command reads versions one by one).
 */
export function openScanner(config: Config): Scanner {
  const scanner = openClamdScanner(config, systemClock, 1);
  if (!scanner)
    throw new ConfigError(
      'coffer scan needs a scanner: set COFFER_SCAN_URL (clamd://host:port or clamd:///path/to/clamd.ctl)',
    );
  return scanner;
}
