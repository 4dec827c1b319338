import { ClamdScanner } from '../admission/clamd-scanner.ts';
import { toClamdAddress } from '../config/settings/scan-settings.ts';
import { ScanGate, type ScanGateOptions } from '../domain/admission/scan-gate.ts';
import type { WiringContext } from './wiring-context.ts';

/** The malware gate (issue 42): ClamAV's daemon when COFFER_SCAN_URL names one, else no scanner. */
export function buildScanGate(
  { config, clock }: WiringContext,
  settingsOf: ScanGateOptions['settingsOf'],
): ScanGate {
  const address = config.scanUrl === undefined ? undefined : toClamdAddress(config.scanUrl);
  const scanner =
    address &&
    new ClamdScanner({
      address,
      maxBytes: config.scanMaxBytes,
      concurrency: config.scanConcurrency,
      timeoutMs: config.scanTimeoutSeconds * 1000,
      clock,
    });
  return new ScanGate({ ...(scanner && { scanner }), failOpen: config.scanFailOpen, clock, settingsOf });
}
