import type { ControlledTransaction, Kysely } from 'kysely';
import { toScanText } from '../../../domain/admission/scan-record.ts';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { isSummarizedType } from '../../../domain/renditions/renderable-source.ts';
import type { ReleasedBlob } from '../../../domain/versions/file-version.ts';
import type { NewCurrentVersion, PromotionRefusal } from '../../../domain/versions/version-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { findFileById } from '../files/file-rows.ts';
import { assertUsageWithin } from '../storage-usage-check.ts';
import { writeTransaction } from '../write-transaction.ts';
import { pruneBeyondKept } from './prune-versions.ts';

type Options = {
  now: Date;
  versionsKept: number;
  event: NewEvent;
  fromUpload?: { id: string; pendingVersion: string | null };
  quotas?: QuotaLimits;
};

/** Refusals roll the transaction back (nothing written) and are answered, not thrown. */
class Refused {
  readonly reason: PromotionRefusal;
  constructor(reason: PromotionRefusal) {
    this.reason = reason;
  }
}

/**
 * VersionRepository.promote, in one transaction:
 * 1. lock the file row (a verified file, not held; a concurrent delete, move or promotion waits
 *    or wins);
 * 2. with an upload: remove it, only while it still holds the version verify saw;
 * 3. the current version becomes a `file_versions` row (its id: version_id, or the file's own
 *    for its first), the new one the file's columns (its image summary and renditions are the
 *    old bytes', so they go);
 * 4. the versions beyond versionsKept go; the quotas are re-checked under the usage locks;
 * 5. the event.
 */
export async function promoteVersion(
  db: Kysely<DatabaseSchema>,
  fileId: string,
  current: NewCurrentVersion,
  options: Options,
): Promise<{ file: FileRecord; pruned: ReleasedBlob[] } | PromotionRefusal> {
  try {
    return await writeTransaction(db, (trx) => promote(trx, fileId, current, options));
  } catch (error) {
    if (error instanceof Refused) return error.reason;
    throw error;
  }
}

async function promote(
  trx: ControlledTransaction<DatabaseSchema>,
  fileId: string,
  current: NewCurrentVersion,
  options: Options,
): Promise<{ file: FileRecord; pruned: ReleasedBlob[] }> {
  const now = options.now.getTime();
  const locked = await trx
    .updateTable('files')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('id', '=', fileId)
    .where('verified', '=', 1)
    .where('blob_version', 'is not', null)
    .returningAll()
    .executeTakeFirst();
  if (locked === undefined) throw new Refused('missing');
  if (locked.hold_reason !== null) throw new Refused('held');
  if (options.fromUpload) {
    const { id, pendingVersion } = options.fromUpload;
    const removed = await trx
      .deleteFrom('version_uploads')
      .where('id', '=', id)
      .where('file_id', '=', fileId)
      .where((eb) =>
        pendingVersion === null
          ? eb('upload_blob_version', 'is', null)
          : eb('upload_blob_version', '=', pendingVersion),
      )
      .executeTakeFirst();
    if (removed.numDeletedRows === 0n) throw new Refused('changed');
  }
  await trx
    .insertInto('file_versions')
    .values({
      file_id: locked.id,
      version_id: locked.version_id ?? locked.id,
      project_id: locked.project_id,
      creator_id: locked.creator_id,
      blob_file_id: locked.blob_file_id ?? locked.id,
      blob_version: locked.blob_version!,
      etag: locked.etag!,
      size_bytes: Number(locked.content_size_bytes ?? 0),
      content_type: locked.content_type!,
      content_last_modified: Number(locked.content_last_modified ?? now),
      content_sha256: locked.content_sha256,
      content_crc32: locked.content_crc32,
      content_scan: locked.content_scan,
      created_at: Number(locked.version_created_at ?? locked.created_at),
      created_by: locked.version_created_by ?? locked.creator_id,
      noncurrent_at: now,
    })
    .execute();
  const { content } = current;
  await trx
    .updateTable('files')
    .set((eb) => ({
      blob_file_id: current.blobFileId === locked.id ? null : current.blobFileId,
      blob_version: current.blobVersion,
      etag: current.etag,
      content_size_bytes: content.sizeBytes,
      content_type: content.contentType,
      content_last_modified: content.lastModified.getTime(),
      content_sha256: content.checksumSha256,
      content_crc32: current.contentCrc32,
      content_scan: toScanText(current.scan),
      ...(current.customData !== undefined && { custom_data: JSON.stringify(current.customData) }),
      version_id: current.versionId === locked.id ? null : current.versionId,
      version_created_at: now,
      version_created_by: current.createdBy,
      image_width: null,
      image_height: null,
      image_placeholder: null,
      media_duration_ms: null,
      media_video_codec: null,
      media_audio_codec: null,
      // The new bytes wait for their own summary (dimensions, placeholder), as a verify's do.
      image_summary_due: isSummarizedType(content.contentType) ? 1 : 0,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', fileId)
    .execute();
  // Renditions were made of the old bytes: made again from the new ones on first use.
  await trx.deleteFrom('renditions').where('file_id', '=', fileId).execute();
  const pruned = await pruneBeyondKept(trx, fileId, options.versionsKept);
  if (options.quotas) {
    const owner = { projectId: locked.project_id, userId: locked.creator_id };
    await assertUsageWithin(trx, owner, options.quotas, { files: false, bytes: true });
  }
  await insertEvents(trx, [options.event]);
  const file = await findFileById(trx, fileId);
  if (!file) throw new Error(`file ${fileId} vanished inside its own transaction`);
  return { file, pruned };
}
