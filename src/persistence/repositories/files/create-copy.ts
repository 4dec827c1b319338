import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { FileRepository, ReplacedUpload } from '../../../domain/files/file-repository.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { fileExists } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { writeTransaction } from '../write-transaction.ts';
import { noVersionsNorHold } from './create-file.ts';
import { deleteAbandonedUpload } from './delete-abandoned-upload.ts';
import type { FileInserts } from './file-inserts.ts';
import { toFileRecord } from './file-rows.ts';
import { findFolderAcls } from './folder-acl-rows.ts';

/** What FileRepository.createCopy is given: the new record's identity and the file it copies. */
export type NewCopy = Parameters<FileRepository['createCopy']>[0];

/** FileRepository.createCopy: a new record naming its source's bytes (blob_file_id), no bytes stored. */
export async function createCopy(
  db: Kysely<DatabaseSchema>,
  inserts: FileInserts,
  copy: NewCopy,
  now: Date,
  quotas?: QuotaLimits,
  event?: NewEvent,
): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined> {
  try {
    return await writeTransaction(db, async (trx) => {
      // A no-op update locks the source row until commit: a delete of the source either
      // waits for this copy (and then sees it as a reference to the bytes) or wins (and this
      // finds nothing). SQLite's write lock does the same for the whole database.
      const source = await trx
        .updateTable('files')
        .set((eb) => ({ version: eb.ref('version') }))
        .where('id', '=', copy.sourceId)
        .where('verified', '=', 1)
        // security: a quarantined file's bytes are served to no one (issue 42), a copy's neither.
        .where('quarantined_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (source === undefined || source.project_id !== copy.projectId) return undefined;
      const replaced = await deleteAbandonedUpload(trx, copy, now);
      // The copy's row stamp is its own: it starts at the column's default. Its folder is
      // generated from its own path (an insert may not name it).
      // A copy starts at its own first version (its id the copy's), with no hold: the source's
      // version and hold columns are left to their defaults.
      const {
        row_stamp: _sourceStamp,
        folder_path: _sourceFolder,
        version_id: _v,
        version_created_at: _vAt,
        version_created_by: _vBy,
        hold_reason: _h,
        held_at: _hAt,
        held_by: _hBy,
        media_duration_ms,
        media_video_codec,
        media_audio_codec,
        content_crc32,
        upload_crc32: _uploadCrc,
        quarantined_at: _qAt,
        quarantine_signature: _qSig,
        quarantine_version_id: _qVersion,
        content_scan,
        upload_scan: _uploadScan,
        upload_admission: _uploadAdmission,
        ...copied
      } = source;
      const row = {
        ...copied,
        id: copy.id,
        creator_id: copy.creatorId,
        file_path: copy.filePath,
        permission_scope: copy.permissionScope,
        blob_file_id: source.blob_file_id ?? source.id,
        links_generation: 0,
        created_at: now.getTime(),
        updated_at: now.getTime(),
        version: 0,
      };
      await inserts.insertFile(trx, row);
      // The insert is prepared with a new record's columns; a video's probe follows it (issue 39).
      const probe = { media_duration_ms, media_video_codec, media_audio_codec };
      if (media_video_codec !== null)
        await trx.updateTable('files').set(probe).where('id', '=', copy.id).execute();
      // So does the CRC-32 of the same bytes (issue 40), when known.
      if (content_crc32 !== null)
        await trx.updateTable('files').set({ content_crc32 }).where('id', '=', copy.id).execute();
      // And the scanner's verdict (issue 42): the same bytes, the same verdict; a copy is never unscanned.
      if (content_scan !== null)
        await trx.updateTable('files').set({ content_scan }).where('id', '=', copy.id).execute();
      await inserts.insertCreatorAcl(trx, copy.id, copy.creatorId, copy.projectId, row.created_at);
      // The quotas are judged here, after the insert moved the usage rows (locked until commit),
      // not only before the write: concurrent copies on any worker or node cannot all pass a
      // quota that has room for one (issue 25, item 3).
      if (quotas) {
        const grew = { files: replaced === undefined, bytes: Number(row.content_size_bytes ?? 0) > 0 };
        await assertUsageWithin(trx, { projectId: copy.projectId, userId: copy.creatorId }, quotas, grew);
      }
      await insertEvents(trx, [event]);
      const folderAcl = (await findFolderAcls(trx, [row])).get(row.id) ?? [];
      const file = toFileRecord(
        { ...row, ...noVersionsNorHold, ...probe, content_crc32, content_scan },
        [{ scope: 'user', identifier: copy.creatorId }],
        folderAcl,
      );
      return replaced === undefined ? { file } : { file, replaced };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fileExists();
    throw error;
  }
}
