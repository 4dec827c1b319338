import type { NewEvent } from '../events/event.ts';

/** A pending upload the hook judges: a new file's (`files`) or a new version's (`version_uploads`). */
export type AdmissionSlot = { kind: 'file' | 'version'; id: string; blobVersion: string };

/** Where admission outcomes are kept: on the pending upload itself (migration 0045). */
export interface AdmissionRepository {
  /** The slot's record text; undefined when its pending upload is no longer `blobVersion` (replaced, verified, gone). */
  read(slot: AdmissionSlot): Promise<string | null | undefined>;
  /**
   * Replaces the record only while it is still `expected` (text for text, null for none) and
   * the pending upload is still the slot's, writing `event` in the same transaction; false
   * when another verify or upload changed it first.
   */
  swap(slot: AdmissionSlot, expected: string | null, next: string | null, event?: NewEvent): Promise<boolean>;
}
