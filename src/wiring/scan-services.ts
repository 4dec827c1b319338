import { ClamdScanner } from '../admission/clamd-scanner.ts';
import type { Config } from '../config/config.ts';
import { toClamdAddress } from '../config/settings/scan-settings.ts';
import { AdmissionHook, type AdmissionHookOptions } from '../domain/admission/admission-hook.ts';
import { PendingBytesReader } from '../domain/admission/pending-bytes.ts';
import { ScanGate, type ScanGateOptions } from '../domain/admission/scan-gate.ts';
import type { Clock } from '../domain/clock.ts';
import type { LinkIssuer } from '../domain/links/link-issuer.ts';
import { HttpAdmissionCaller } from '../webhooks/http-admission-caller.ts';
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

/**
 * The projects' admission hooks (issue 42, item 3), asked through the webhooks' guard
 * (COFFER_WEBHOOK_ALLOW_PRIVATE), and the reader of the pending bytes their `url` names.
 */
export function buildAdmissionHook(
  context: WiringContext,
  shared: { links: LinkIssuer; settingsOf: AdmissionHookOptions['settingsOf'] },
): { admissions: AdmissionHook; pendingBytes: PendingBytesReader } {
  const { config, repositories, blobs, clock } = context;
  const { links, settingsOf } = shared;
  const admissions = new AdmissionHook({
    caller: openAdmissionCaller(config),
    admissions: repositories.admissions,
    blobs,
    clock,
    settingsOf,
    pendingLink: (fileId, versionId, expiresAt) => links.issueAdmission(fileId, versionId, expiresAt),
  });
  const pendingBytes = new PendingBytesReader({
    files: repositories.files,
    blobs,
    clock,
    links,
    versions: repositories.versions,
    admissions: repositories.admissions,
  });
  return { admissions, pendingBytes };
}

/** The admission hooks' caller, guarded as webhooks are (COFFER_WEBHOOK_ALLOW_PRIVATE). */
export function openAdmissionCaller(config: Pick<Config, 'webhookAllowPrivate'>): HttpAdmissionCaller {
  return new HttpAdmissionCaller({ allowPrivate: config.webhookAllowPrivate });
}
