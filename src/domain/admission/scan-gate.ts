import { tooLargeToScan } from '../../errors/admission-errors.ts';
import { isAppError } from '../../errors/app-error.ts';
import type { Clock } from '../clock.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { ScanRecord } from './scan-record.ts';
import { type ScanPolicy, ScanTap } from './scan-tap.ts';
import type { Scanner } from './scanner.ts';

export type ScanGateOptions = {
  /** The server's scanner (COFFER_SCAN_URL); none: nothing is scanned. */
  scanner?: Scanner;
  /** COFFER_SCAN_FAIL_OPEN: a scanner that cannot answer admits the bytes unscanned ("skipped"). */
  failOpen: boolean;
  clock: Clock;
  settingsOf: (projectId: string) => Promise<Pick<ProjectSettings, 'scan' | 'scanOversize'>>;
};

/**
 * Issue 42, the malware gate: whether a project's uploads are scanned, and the verdict on a
 * version's bytes — reached while a PUT streams (tapUpload) or by reading stored bytes once
 * (verdictOn). Oversize bytes are judged by Coffer, never sent: a clamd past its MaxFileSize
 * answers OK for bytes it never looked at.
 */
export class ScanGate {
  readonly #o: ScanGateOptions;

  constructor(options: ScanGateOptions) {
    this.#o = options;
  }

  async policyOf(projectId: string): Promise<ScanPolicy | undefined> {
    const { scanner, failOpen, clock } = this.#o;
    if (!scanner) return undefined;
    const settings = await this.#o.settingsOf(projectId);
    if (settings.scan === 'off') return undefined;
    return { scanner, oversize: settings.scanOversize, failOpen, clock };
  }

  /**
   * A PUT's body on its way to the store, scanned as it passes (no second read); undefined when
   * the project's uploads are not scanned. FILE_TOO_LARGE at once when the declared length is
   * past the scanner's limit and the project refuses what it cannot scan.
   */
  async tapUpload(projectId: string, declaredBytes: number | null): Promise<ScanTap | undefined> {
    const policy = await this.policyOf(projectId);
    if (!policy) return undefined;
    const { maxBytes } = policy.scanner;
    if (declaredBytes !== null && declaredBytes > maxBytes && policy.oversize === 'refuse')
      throw tooLargeToScan(maxBytes);
    return new ScanTap(policy);
  }

  /**
   * The verdict on stored bytes (`read` opens them; called at most once): FILE_TOO_LARGE past
   * the scanner's limit unless the project allows it (then skipped); SCANNER_UNAVAILABLE when
   * the scanner cannot answer, unless the server fails open (then skipped).
   */
  async verdictOn(
    policy: ScanPolicy,
    sizeBytes: number,
    read: () => Promise<AsyncIterable<Uint8Array>>,
  ): Promise<ScanRecord> {
    const { scanner } = policy;
    if (sizeBytes > scanner.maxBytes) {
      if (policy.oversize === 'refuse') throw tooLargeToScan(scanner.maxBytes);
      return skipped(policy, 'oversize');
    }
    try {
      return await scanner.scan(await read());
    } catch (error) {
      if (!isAppError(error) || error.code !== 'SCANNER_UNAVAILABLE') throw error;
      if (policy.failOpen) return skipped(policy, 'unavailable');
      throw error;
    }
  }
}

/** A verdict of bytes admitted unscanned (`meta.scan.result` "skipped"). */
export function skipped(policy: Pick<ScanPolicy, 'clock'>, reason: 'oversize' | 'unavailable'): ScanRecord {
  return { result: 'skipped', reason, scannedAt: policy.clock.now().toISOString() };
}

export type { ScanPolicy };
