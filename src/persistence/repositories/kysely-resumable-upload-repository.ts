import type { Kysely, Selectable } from 'kysely';
import type { NewResumableUpload, ResumableUpload } from '../../domain/resumable/resumable-upload.ts';
import type {
  Lease,
  OffsetMove,
  ResumableUploadRepository,
} from '../../domain/resumable/resumable-upload-repository.ts';
import type { DatabaseSchema, ResumableUploadsTable } from '../database-schema.ts';

/** Resumable uploads in progress (migrations/resumable-uploads.ts). */
export class KyselyResumableUploadRepository implements ResumableUploadRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(upload: NewResumableUpload): Promise<void> {
    await this.#db
      .insertInto('resumable_uploads')
      .values({
        id: upload.id,
        project_id: upload.projectId,
        file_id: upload.fileId,
        creator_id: upload.creatorId,
        blob_version: upload.blobVersion,
        length: upload.length,
        upload_offset: 0,
        store_state: upload.storeState,
        state: 'receiving',
        etag: null,
        lease_owner: null,
        lease_until: null,
        lease_holder: null,
        sha256_state: null,
        expires_at: upload.expiresAt.getTime(),
        created_at: upload.createdAt.getTime(),
      })
      .execute();
  }

  async findById(id: string): Promise<ResumableUpload | undefined> {
    const row = await this.#db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toResumableUpload(row);
  }

  async findReceivingByFileId(fileId: string): Promise<ResumableUpload | undefined> {
    // resumable_uploads_file_idx (file_id, blob_version): its prefix.
    const row = await this.#db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('file_id', '=', fileId)
      .where('state', '=', 'receiving')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row && toResumableUpload(row);
  }

  async takeLease(id: string, lease: Lease, now: Date): Promise<boolean> {
    // One conditional update: of two writers racing for a free (or lapsed) lease, the database
    // lets exactly one match the condition.
    const result = await this.#db
      .updateTable('resumable_uploads')
      .set(toLeaseColumns(lease))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('lease_owner', 'is', null),
          eb('lease_owner', '=', lease.owner),
          eb('lease_until', '<', now.getTime()),
        ]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async takeOverLease(id: string, lease: Lease, fromOwner: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('resumable_uploads')
      .set(toLeaseColumns(lease))
      .where('id', '=', id)
      .where('lease_owner', '=', fromOwner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async findLease(id: string): Promise<Lease | undefined> {
    const row = await this.#db
      .selectFrom('resumable_uploads')
      .select(['lease_owner', 'lease_until', 'lease_holder'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row?.lease_owner || row.lease_until === null) return undefined;
    return { owner: row.lease_owner, until: new Date(Number(row.lease_until)), holder: row.lease_holder };
  }

  async renewLease(id: string, lease: Lease): Promise<boolean> {
    const result = await this.#db
      .updateTable('resumable_uploads')
      .set({ lease_until: lease.until.getTime() })
      .where('id', '=', id)
      .where('lease_owner', '=', lease.owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await this.#db
      .updateTable('resumable_uploads')
      .set({ lease_owner: null, lease_until: null, lease_holder: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async advance(id: string, owner: string, move: OffsetMove) {
    const result = await this.#db
      .updateTable('resumable_uploads')
      .set({
        upload_offset: move.to,
        expires_at: move.expiresAt.getTime(),
        // The state and the offset it belongs to in one update: they agree after any crash.
        sha256_state: move.sha256State ? Buffer.from(move.sha256State).toString('base64') : null,
        crc32_state: move.sha256State ? (move.crc32State ?? null) : null,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('upload_offset', '=', move.from)
      .where('state', '=', 'receiving')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async markCommitted(id: string, etag: string): Promise<void> {
    await this.#db
      .updateTable('resumable_uploads')
      .set({ state: 'committed', etag })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('resumable_uploads').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async listExpired(now: Date, limit: number): Promise<ResumableUpload[]> {
    const rows = await this.#db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('expires_at', '<', now.getTime())
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toResumableUpload);
  }

  async holdsVersion(fileId: string, blobVersion: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('resumable_uploads')
      .select('id')
      .where('file_id', '=', fileId)
      .where('blob_version', '=', blobVersion)
      .executeTakeFirst();
    return row !== undefined;
  }

  async measureInProgress(): Promise<{ uploads: number; bytes: number }> {
    const row = await this.#db
      .selectFrom('resumable_uploads')
      .select((eb) => [eb.fn.countAll().as('uploads'), eb.fn.sum('upload_offset').as('bytes')])
      .where('state', '=', 'receiving')
      .executeTakeFirst();
    return { uploads: Number(row?.uploads ?? 0), bytes: Number(row?.bytes ?? 0) };
  }
}

function toLeaseColumns(lease: Lease) {
  return { lease_owner: lease.owner, lease_until: lease.until.getTime(), lease_holder: lease.holder ?? null };
}

function toResumableUpload(row: Selectable<ResumableUploadsTable>): ResumableUpload {
  return {
    id: row.id,
    projectId: row.project_id,
    fileId: row.file_id,
    creatorId: row.creator_id,
    blobVersion: row.blob_version,
    length: Number(row.length),
    offset: Number(row.upload_offset),
    storeState: row.store_state,
    sha256State: row.sha256_state === null ? null : Buffer.from(row.sha256_state, 'base64'),
    crc32State: row.crc32_state === null ? null : Number(row.crc32_state),
    state: row.state === 'committed' ? 'committed' : 'receiving',
    etag: row.etag,
    expiresAt: new Date(Number(row.expires_at)),
    createdAt: new Date(Number(row.created_at)),
  };
}
