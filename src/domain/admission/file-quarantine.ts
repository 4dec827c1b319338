import { accessDenied } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Clock } from '../clock.ts';
import type { Actor } from '../events/event.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import type { QuarantineRepository } from './quarantine-repository.ts';

export type FileQuarantineOptions = {
  files: FileRepository;
  quarantine: QuarantineRepository;
  clock: Clock;
};

/**
 * Quarantine (issue 42, item 2): a file a re-scan found infected is served to no one until a
 * project admin releases it or deletes it. The reads that refuse it (FILE_QUARANTINED) check
 * the record's `quarantine` themselves; this module sets, lifts and lists the state.
 */
export class FileQuarantine {
  readonly #o: FileQuarantineOptions;

  constructor(options: FileQuarantineOptions) {
    this.#o = options;
  }

  /**
   * Quarantines the file for a hit in one of its versions; undefined when it is gone or already
   * quarantined (the first hit is kept, no second event).
   */
  async quarantine(
    fileId: string,
    hit: { signature: string; versionId: string },
    actor: Actor,
  ): Promise<FileRecord | undefined> {
    const file = await this.#o.files.findById(fileId);
    if (!file) return undefined;
    const now = this.#o.clock.now();
    const event = toFileEvent('file.quarantined', actor, file, now, {
      signature: hit.signature,
      versionId: hit.versionId,
    });
    return this.#o.quarantine.quarantine(
      file.id,
      { signature: hit.signature, versionId: hit.versionId, quarantinedAt: now },
      event,
    );
  }

  /**
   * POST /api/v1/file/:id/quarantine/release (project admins and service keys): the file is
   * readable again; a file not quarantined stays as it is (no event). Links issued before the
   * quarantine stay dead: its generation moved on.
   */
  async release(principal: Principal, fileId: string): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'read');
    if (!principal.isAdmin) throw accessDenied('Only a project admin may release a quarantined file');
    if (!file.quarantine) return file;
    const now = this.#o.clock.now();
    const event = toFileEvent('file.quarantine_released', principal, file, now, {
      signature: file.quarantine.signature,
      versionId: file.quarantine.versionId,
    });
    // False also when another admin released it first: the outcome asked for either way.
    await this.#o.quarantine.release(file.id, now, event);
    return (await this.#o.files.findById(file.id)) ?? file;
  }

  /** The project's quarantined files, the latest first (the console's list). */
  list(projectId: string, page: { limit: number; offset: number }): Promise<FileRecord[]> {
    return this.#o.quarantine.listQuarantined(projectId, page);
  }
}
