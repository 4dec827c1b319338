import type { AdmissionHook } from '../admission/admission-hook.ts';
import type { ScanGate } from '../admission/scan-gate.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import type { FileStores } from './file-stores.ts';
import type { HashThread } from './hash-thread.ts';
import type { UploadLimits } from './upload-limits.ts';

/** What FileUploads (file-uploads.ts) works with. */
export type FileUploadsOptions = FileStores & {
  links: LinkIssuer;
  uploadLinkTtlSeconds: number;
  maxFileSizeBytes: number;
  /** The project's file size, content types and quotas (issue 10, item 10). */
  limits: UploadLimits;
  /** Where uploads' SHA-256 digests are computed, off the request thread. */
  hashes: HashThread;
  /** Direct-upload mode: clients PUT to the store; verify adopts what they stored. */
  directUploads?: boolean;
  /** Told after the fact (metrics); must not throw. */
  events?: FileEvents;
  /** The malware gate (issue 42): scans uploads before verify; absent: nothing is scanned. */
  scans?: ScanGate;
  /** The projects' admission hooks (issue 42, item 3), asked after the scan. */
  admissions?: AdmissionHook;
};

/** What the uploads report as they happen: an upload's bytes committed, an upload verified. */
export type FileEvents = {
  uploadCommitted(sizeBytes: number): void;
  uploadVerified(): void;
};
