import { fileQuarantined } from '../../errors/quarantine-errors.ts';
import type { FileRecord } from '../files/file-record.ts';

/**
 * security: a quarantined file's bytes go to no one (issue 42, item 2) — no link, no download,
 * no rendition, no archive, no copy, admins included until they release it. Every path that
 * serves or hands out its content calls this on the record it just read.
 */
export function assertNotQuarantined(file: Pick<FileRecord, 'quarantine'>): void {
  if (file.quarantine) throw fileQuarantined(file.quarantine.signature);
}
