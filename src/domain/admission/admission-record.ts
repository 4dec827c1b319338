import type { CustomData } from '../files/custom-data.ts';

/**
 * What the admission hook (issue 42, item 3) made of a pending upload, kept on it (JSON text in
 * `upload_admission`) so a retried verify answers the same outcome without asking again:
 * - `asking`: a verify is asking the hook until `until` (ms); another verify waits (503);
 * - `allowed` (with the customData the hook set, applied at the verify's commit);
 * - `skipped`: the hook could not answer and the project fails open;
 * - `refused`: the hook's reason; the bytes are deleted.
 */
export type AdmissionRecord =
  | { result: 'asking'; until: number }
  | { result: 'allowed'; at: string; customData?: CustomData }
  | { result: 'skipped'; at: string; why: string }
  | { result: 'refused'; at: string; reason: string };

export function toAdmissionRecord(text: string | null): AdmissionRecord | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as AdmissionRecord;
    return typeof value === 'object' && value !== null && typeof value.result === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The JSON text stored for a record (compared byte for byte by the conditional updates). */
export function toAdmissionText(record: AdmissionRecord): string {
  return JSON.stringify(record);
}
