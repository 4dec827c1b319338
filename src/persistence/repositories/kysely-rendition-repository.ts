import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  Rendition,
  RenditionRefusal,
  RenditionRepository,
} from '../../domain/renditions/rendition-repository.ts';
import { isForeignKeyViolation } from '../database-errors.ts';
import type { DatabaseSchema, RenditionRefusalsTable, RenditionsTable } from '../database-schema.ts';
import { prepareQuery, prepareRowStatement } from './prepared-query.ts';

/**
 * Renditions (migrations/renditions.ts): by primary key, or by blob key for the collector; and
 * the refused sources (migrations/rendition-refusals.ts).
 */
export class KyselyRenditionRepository implements RenditionRepository {
  readonly #db: Kysely<DatabaseSchema>;
  // A first rendition reads its row three times, its refusal twice and inserts once (issue 44
  // item 4): compiled once (prepared-query.ts), not rebuilt by Kysely on every call.
  readonly #select: (fileId: string, sourceVersion: string, spec: string) => Promise<RenditionRow[]>;
  readonly #selectRefusal: (fileId: string, sourceVersion: string) => Promise<RefusalRow[]>;
  readonly #insert = prepareRowStatement((values: Insertable<RenditionsTable>) =>
    this.#db
      .insertInto('renditions')
      .values(values)
      .onConflict((oc) => oc.columns(['file_id', 'source_version', 'spec']).doNothing())
      .returningAll(),
  );

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#select = prepareQuery(
      db,
      (fileId: string, sourceVersion: string, spec: string) =>
        db
          .selectFrom('renditions')
          .selectAll()
          .where('file_id', '=', fileId)
          .where('source_version', '=', sourceVersion)
          .where('spec', '=', spec),
      ['', '', ''],
    );
    this.#selectRefusal = prepareQuery(
      db,
      (fileId: string, sourceVersion: string) =>
        db
          .selectFrom('rendition_refusals')
          .selectAll()
          .where('file_id', '=', fileId)
          .where('source_version', '=', sourceVersion),
      ['', ''],
    );
  }

  async find(fileId: string, sourceVersion: string, spec: string): Promise<Rendition | undefined> {
    const [row] = await this.#select(fileId, sourceVersion, spec);
    return row && toRendition(row);
  }

  async insert(rendition: Rendition): Promise<Rendition | undefined> {
    let inserted: RenditionRow | undefined;
    try {
      [inserted] = await this.#insert(this.#db, {
        file_id: rendition.fileId,
        source_version: rendition.sourceVersion,
        spec: rendition.spec,
        blob_key: rendition.blobKey,
        blob_version: rendition.blobVersion,
        size_bytes: rendition.sizeBytes,
        content_type: rendition.contentType,
        etag: rendition.etag,
        width: rendition.width,
        height: rendition.height,
        created_at: rendition.createdAt.getTime(),
      });
    } catch (error) {
      // The file was deleted while this rendered: its renditions went with it.
      if (isForeignKeyViolation(error)) return undefined;
      throw error;
    }
    // Nothing returned: another render of the same rendition was recorded first, and is the one.
    return inserted
      ? toRendition(inserted)
      : this.find(rendition.fileId, rendition.sourceVersion, rendition.spec);
  }

  async findRefusal(fileId: string, sourceVersion: string): Promise<RenditionRefusal | undefined> {
    const [row] = await this.#selectRefusal(fileId, sourceVersion);
    return (
      row && {
        fileId: row.file_id,
        sourceVersion: row.source_version,
        code: row.code === 'MEDIA_UNREADABLE' ? 'MEDIA_UNREADABLE' : 'IMAGE_TOO_LARGE',
        message: row.message,
        limits: row.limits,
        createdAt: new Date(Number(row.created_at)),
      }
    );
  }

  async insertRefusal(refusal: RenditionRefusal): Promise<void> {
    try {
      await this.#db
        .insertInto('rendition_refusals')
        .values({
          file_id: refusal.fileId,
          source_version: refusal.sourceVersion,
          code: refusal.code,
          message: refusal.message,
          limits: refusal.limits,
          created_at: refusal.createdAt.getTime(),
        })
        // A refusal decided again (under other limits: assertNotRefused passed the old one) replaces it.
        .onConflict((oc) =>
          oc.columns(['file_id', 'source_version']).doUpdateSet({
            message: refusal.message,
            limits: refusal.limits,
            created_at: refusal.createdAt.getTime(),
          }),
        )
        .execute();
    } catch (error) {
      // The file was deleted meanwhile: its refusals would have gone with it.
      if (!isForeignKeyViolation(error)) throw error;
    }
  }

  async findRenditionBlobVersions(blobKeys: readonly string[]): Promise<Map<string, Set<string>>> {
    const versions = new Map<string, Set<string>>();
    if (blobKeys.length === 0) return versions;
    const rows = await this.#db
      .selectFrom('renditions')
      .select(['blob_key', 'blob_version'])
      .where('blob_key', 'in', blobKeys)
      .execute();
    for (const row of rows) {
      const held = versions.get(row.blob_key) ?? new Set<string>();
      held.add(row.blob_version);
      versions.set(row.blob_key, held);
    }
    return versions;
  }
}

type RenditionRow = Selectable<RenditionsTable>;
type RefusalRow = Selectable<RenditionRefusalsTable>;

function toRendition(row: RenditionRow): Rendition {
  return {
    fileId: row.file_id,
    sourceVersion: row.source_version,
    spec: row.spec,
    blobKey: row.blob_key,
    blobVersion: row.blob_version,
    sizeBytes: Number(row.size_bytes),
    contentType: row.content_type,
    etag: row.etag,
    width: row.width,
    height: row.height,
    createdAt: new Date(Number(row.created_at)),
  };
}
