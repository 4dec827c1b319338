import { ClamdScanner } from '../admission/clamd-scanner.ts';
import type { Config } from '../config/config.ts';
import { toClamdAddress } from '../config/settings/scan-settings.ts';
import { ScanGate, type ScanGateOptions } from '../domain/admission/scan-gate.ts';
import type { Clock } from '../domain/clock.ts';
import type { WiringContext } from './wiring-context.ts';

/** The malware gate (issue 42): ClamAV's daemon when COFFER_SCAN_URL names one, else no scanner. */
export function buildScanGate(
  { config, clock }: WiringContext,
  settingsOf: ScanGateOptions['settingsOf'],
): ScanGate {
  const scanner = openClamdScanner(config, clock, config.scanConcurrency);
  return new ScanGate({ ...(scanner && { scanner }), failOpen: config.scanFailOpen, clock, settingsOf });
}

/**
 * ClamAV's daemon at COFFER_SCAN_URL with the server's limits, `concurrency` scans at once
 * (the upload gate's COFFER_SCAN_CONCURRENCY; `coffer scan` reads versions one by one);
 * undefined where COFFER_SCAN_URL is not set.
 */
export function openClamdScanner(
  config: Pick<Config, 'scanUrl' | 'scanMaxBytes' | 'scanTimeoutSeconds'>,
  clock: Clock,
  concurrency: number,
): ClamdScanner | undefined {
  const address = config.scanUrl === undefined ? undefined : toClamdAddress(config.scanUrl);
  return (
    address &&
    new ClamdScanner({
      address,
      maxBytes: config.scanMaxBytes,
      concurrency,
      timeoutMs: config.scanTimeoutSeconds * 1000,
      clock,
    })
  );
}
