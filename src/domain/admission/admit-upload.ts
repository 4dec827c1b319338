import { Readable } from 'node:stream';
import { fileInfected } from '../../errors/admission-errors.ts';
import { uploadMissing } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { type NewEvent, systemActor } from '../events/event.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRecord, PendingUpload } from '../files/file-record.ts';
import type { AdmissionHook, AdmissionSubject } from './admission-hook.ts';
import type { AdmissionRecord } from './admission-record.ts';
import type { ScanGate } from './scan-gate.ts';
import type { ScanRecord } from './scan-record.ts';

export type AdmitUpload = {
  gate: ScanGate | undefined;
  projectId: string;
  blobs: BlobStore;
  /** Where the pinned bytes are stored. */
  key: string;
  pinned: PendingUpload;
  /** The pinned bytes were adopted from a direct upload just now: no record names them yet. */
  adopted: boolean;
  /**
   * Records the upload (with an infected verdict and its `file.infected` event, or adopted bytes
   * kept for a later verify) only while the target's pending upload is still the one judged
   * (or none was, a direct upload's).
   */
  record: (pinned: PendingUpload, event?: NewEvent, keptForLater?: boolean) => Promise<unknown>;
  infectedEvent: (verdict: Extract<ScanRecord, { result: 'infected' }>) => NewEvent;
  /**
   * The target's pending upload as recorded now: a verify racing this one may have judged the
   * same bytes infected (and deleted them) meanwhile.
   */
  pendingNow: () => Promise<PendingUpload | null | undefined>;
  /** The project's admission hook (issue 42, item 3), asked after the scan; absent: none. */
  hook?: AdmissionHook;
  /** What the hook is told, and who verifies. */
  subject: Omit<AdmissionSubject, 'pinned' | 'key'>;
  by: Principal;
};

/** What the gate made of the bytes: the scan (`meta.scan`) and the admission hook's outcome. */
export type Admitted = { scan: ScanRecord | null; admission: AdmissionRecord | null };

/**
 * Both gates at verify, in their order (design: the scan, then the hook, then the commit):
 * answers what they recorded, or throws their refusal.
 */
export async function admitUpload(o: AdmitUpload): Promise<Admitted> {
  const scan = await scanUpload(o);
  const admission = o.hook
    ? await o.hook.admit({ ...o.subject, pinned: { ...o.pinned, scan }, key: o.key }, o.by)
    : null;
  return { scan, admission };
}

/** The customData the hook set, to replace the file's in the verify's commit; undefined: unchanged. */
export function admittedCustomData(admitted: Admitted) {
  return admitted.admission?.result === 'allowed' ? admitted.admission.customData : undefined;
}

/**
 * Issue 42, at verify: the scanner's verdict on the bytes verify is about to pin — the one the
 * PUT reached while streaming, else the stored bytes read back once (tus, S3 direct and
 * multipart, a PUT whose scan could not finish). Answers what `meta.scan` records (null: the
 * project's uploads are not scanned). Infected: the verdict and its event are recorded first
 * (a retried verify answers the same, without scanning again), the bytes deleted, and
 * FILE_INFECTED thrown; SCANNER_UNAVAILABLE leaves everything as it was, to verify again.
 */
async function scanUpload(o: AdmitUpload): Promise<ScanRecord | null> {
  const policy = await o.gate?.policyOf(o.projectId);
  if (!o.gate || !policy) return null;
  let scan = o.pinned.scan ?? undefined;
  if (!scan) {
    scan = await o.gate
      .verdictOn(policy, o.pinned.sizeBytes, async () => {
        const stored = await o.blobs.get(o.key, o.pinned.blobVersion);
        if (!stored) throw await goneBytesError(o);
        return Buffer.isBuffer(stored.body) ? Readable.from([stored.body]) : stored.body;
      })
      .catch(async (error: unknown) => {
        // The store dropped the direct upload's staging object once copied: the copy is all
        // there is, so it becomes the pending upload and a later verify scans it (nothing lost).
        // Counted from now on, so checked against the quotas as a PUT's bytes are (keptForLater).
        if (o.adopted) await o.record(o.pinned, undefined, true);
        throw error;
      });
    if (scan.result === 'infected') await o.record({ ...o.pinned, scan }, o.infectedEvent(scan));
  }
  if (scan.result === 'infected') {
    await o.blobs.delete(o.key, o.pinned.blobVersion).catch(() => {});
    throw fileInfected(scan.signature);
  }
  return scan;
}

/**
 * Why the pinned bytes are gone: a verify racing this one found them infected, recorded its
 * verdict and deleted them (answered FILE_INFECTED, as that verify was); else UPLOAD_MISSING.
 */
async function goneBytesError(o: AdmitUpload): Promise<Error> {
  const now = await o.pendingNow();
  const recorded = now?.blobVersion === o.pinned.blobVersion ? now.scan : undefined;
  return recorded?.result === 'infected' ? fileInfected(recorded.signature) : uploadMissing();
}

/** `file.infected`: what the scanner found in the refused bytes, by which engine and signatures. */
export function toInfectedEvent(
  file: Pick<FileRecord, 'id' | 'projectId' | 'filePath' | 'creatorId'>,
  upload: PendingUpload,
  by: Principal | undefined,
  now: Date,
): NewEvent {
  const verdict = upload.scan as Extract<ScanRecord, { result: 'infected' }>;
  const data = {
    signature: verdict.signature,
    engine: verdict.engine,
    signatures: verdict.signatures,
    sizeBytes: upload.sizeBytes,
  };
  return toFileEvent('file.infected', by ?? systemActor, file, now, data);
}
