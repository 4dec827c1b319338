import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { mediaMetaColumns } from './trash-mirror-columns.ts';

const tables = ['files', 'trashed_files'] as const;

/**
 * What a verified video tells of itself (issue 39), beside the image summary's width, height
 * and placeholder (migrations/renditions.ts): its duration in milliseconds (an integer, the same
 * on both dialects) and its codecs. Null for anything that is not a video, or not yet probed.
 * `trashed_files` mirrors them (trash-mirror-columns.ts). Verified videos and HEIC photos of
 * before are queued for a summary again: until now none could be made of them.
 */
export const mediaMeta: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of tables) {
      await db.schema.alterTable(table).addColumn('media_duration_ms', 'bigint').execute();
      await db.schema.alterTable(table).addColumn('media_video_codec', 'text').execute();
      await db.schema.alterTable(table).addColumn('media_audio_codec', 'text').execute();
    }
    await sql`
      UPDATE files SET image_summary_due = 1
      WHERE verified = 1 AND image_width IS NULL
        AND (content_type LIKE 'video/%' OR content_type LIKE 'image/hei%')
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of tables)
      for (const column of [...mediaMetaColumns].reverse())
        await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
