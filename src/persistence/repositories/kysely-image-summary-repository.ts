import type { Kysely } from 'kysely';
import type { ImageMeta } from '../../domain/files/file-record.ts';
import type { DueImage, ImageSummaryRepository } from '../../domain/renditions/image-summary-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';

/** The image-summary queue: files with image_summary_due = 1, found by a partial index. */
export class KyselyImageSummaryRepository implements ImageSummaryRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async listDue(limit: number): Promise<DueImage[]> {
    const rows = await this.#db
      .selectFrom('files')
      .select(['id', 'project_id', 'blob_file_id', 'blob_version', 'content_size_bytes', 'content_type'])
      .where('image_summary_due', '=', 1)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.flatMap((row) =>
      row.blob_version === null || row.content_size_bytes === null || row.content_type === null
        ? []
        : [
            {
              id: row.id,
              projectId: row.project_id,
              blobFileId: row.blob_file_id,
              blobVersion: row.blob_version,
              sizeBytes: Number(row.content_size_bytes),
              contentType: row.content_type,
            },
          ],
    );
  }

  async saveSummary(fileId: string, blobVersion: string, image: ImageMeta | null): Promise<void> {
    await this.#db
      .updateTable('files')
      .set({
        image_width: image?.width ?? null,
        image_height: image?.height ?? null,
        image_placeholder: image?.placeholder ?? null,
        media_duration_ms: image?.video ? Math.round(image.video.durationSeconds * 1000) : null,
        media_video_codec: image?.video?.videoCodec ?? null,
        media_audio_codec: image?.video?.audioCodec ?? null,
        image_summary_due: 0,
      })
      .where('id', '=', fileId)
      .where('blob_version', '=', blobVersion)
      .execute();
  }
}
