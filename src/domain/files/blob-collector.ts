import type { BlobStore } from '../blobs/blob-store.ts';
import type { BlobSweeper, StoredObject, UnfinishedWrite } from '../blobs/blob-sweeper.ts';
import type { Clock } from '../clock.ts';
import type { BlobReferences, FileRepository } from './file-repository.ts';

export type StrayKind = 'version' | 'staging' | 'temp-file' | 'multipart-upload';

/** One stray thing a pass found (and, when applying, removed). */
export type Stray = {
  kind: StrayKind;
  /** `<key>.<version>`, the staging key, the temp file's name, or `<object key> (upload <id>)`. */
  name: string;
  sizeBytes: number | null;
  /** When it was last written (objects, temp files) or started (multipart uploads). */
  since: Date;
  reason: string;
};

export type CollectionReport = {
  applied: boolean;
  graceSeconds: number;
  scannedObjects: number;
  stray: Record<StrayKind, { count: number; bytes: number }>;
  removed: number;
  /** Removals that failed (left for the next pass). */
  failed: number;
  /** The first strays found, at most maxReportedItems. */
  items: Stray[];
  itemsTruncated: boolean;
};

export type BlobCollectorOptions = {
  files: FileRepository;
  blobs: BlobStore;
  sweeper: BlobSweeper;
  clock: Clock;
  /**
   * How old an unreferenced version or an incomplete multipart upload must be before it is
   * stray: longer than any upload can take, so a put that has not committed yet is never hit.
   */
  graceSeconds: number;
  /**
   * Whether a resumable upload still holds this version of the file (issue 20): its multipart
   * upload lives as long as the upload (a day or more, past the grace), and its published
   * version waits for the commit, which a failure may put off. Absent: none does.
   */
  isHeldByUpload?: (fileId: string, version: string) => Promise<boolean>;
  /**
   * Of these keys (none a file's), the versions a rendition names (issue 21): a rendition's
   * bytes live under a key of their own, and the row goes with its file. Absent: none does.
   */
  findRenditionBlobVersions?: (keys: readonly string[]) => Promise<Map<string, Set<string>>>;
};

const pageSize = 500;
const maxReportedItems = 1000;

/**
 * Finds and removes what no file record needs (coffer gc, and periodically in serve): versions
 * no record names (crashes between put and commit, failed deletes, deleted records) once older
 * than the grace period, staging objects of direct uploads whose record is gone or verified,
 * temp files whose writer is gone, and multipart uploads older than the grace period. Every
 * decision rests on the records alone and is safe to repeat, so passes may run on several
 * nodes at once.
 */
export class BlobCollector {
  readonly #o: BlobCollectorOptions;

  constructor(options: BlobCollectorOptions) {
    this.#o = options;
  }

  /** A walk over the whole store; run it at once or a slice at a time. */
  newPass(options: { apply: boolean }): CollectionPass {
    return new CollectionPass(this.#o, options.apply);
  }

  /** One complete pass (dry run unless `apply`). */
  async collect(options: { apply: boolean; signal?: AbortSignal }): Promise<CollectionReport> {
    const pass = this.newPass(options);
    await pass.run({ signal: options.signal });
    return pass.report;
  }
}

/** One walk over the store, resumable: run({maxObjects}) does a bounded slice of it. */
export class CollectionPass {
  readonly report: CollectionReport;
  readonly #o: BlobCollectorOptions;
  readonly #apply: boolean;
  #steps: AsyncGenerator<number> | undefined;
  #signal: AbortSignal | undefined;

  constructor(options: BlobCollectorOptions, apply: boolean) {
    this.#o = options;
    this.#apply = apply;
    const empty = () => ({ count: 0, bytes: 0 });
    this.report = {
      applied: apply,
      graceSeconds: options.graceSeconds,
      scannedObjects: 0,
      stray: { version: empty(), staging: empty(), 'temp-file': empty(), 'multipart-upload': empty() },
      removed: 0,
      failed: 0,
      items: [],
      itemsTruncated: false,
    };
  }

  /** Works through the store until it has looked at `maxObjects` more entries; true once the pass is done. */
  async run(options: { maxObjects?: number; signal?: AbortSignal } = {}): Promise<boolean> {
    this.#signal = options.signal;
    this.#steps ??= this.#walk();
    let budget = options.maxObjects ?? Number.POSITIVE_INFINITY;
    while (budget > 0) {
      options.signal?.throwIfAborted();
      const step = await this.#steps.next();
      if (step.done) return true;
      budget -= step.value;
    }
    return false;
  }

  /** Yields after each page, with the number of entries it looked at. */
  async *#walk(): AsyncGenerator<number> {
    const { sweeper, files } = this.#o;
    for await (const page of sweeper.listObjects({ pageSize, signal: this.#signal })) {
      const ids = [...new Set(page.map(toFileId))];
      const [references, shared] = await Promise.all([
        files.findBlobReferences(ids),
        files.findSharedBlobVersions(ids),
      ]);
      const renditions = await this.#findRenditionVersions(page, references);
      const graceEnd = this.#graceEnd();
      for (const object of page) {
        // A copy serving this version keeps it, whatever became of the file that stored it.
        if (object.version && shared.get(toFileId(object))?.has(object.version)) continue;
        if (object.version && renditions.get(object.key)?.has(object.version)) continue;
        const reason = toStrayReason(object, references.get(toFileId(object)), graceEnd);
        if (!reason || (await this.#isHeldByUpload(object))) continue;
        await this.#found(toStray(object, reason), () => this.#removeObject(object));
      }
      this.report.scannedObjects += page.length;
      yield page.length;
    }
    const startedBefore = this.#graceEnd();
    for await (const page of sweeper.listUnfinishedWrites({
      startedBefore,
      pageSize,
      signal: this.#signal,
    })) {
      for (const write of page) {
        if (write.kind === 'multipart-upload' && (await this.#isHeldByUpload(write))) continue;
        await this.#found(toUnfinishedStray(write), () => sweeper.removeUnfinishedWrite(write));
      }
      yield page.length;
    }
  }

  /** The rendition versions among a page's objects that belong to no file record. */
  async #findRenditionVersions(
    page: StoredObject[],
    references: Map<string, BlobReferences>,
  ): Promise<Map<string, Set<string>>> {
    const find = this.#o.findRenditionBlobVersions;
    const keys = [
      ...new Set(page.filter((o) => o.version && !references.has(toFileId(o))).map((o) => o.key)),
    ];
    return find && keys.length > 0 ? find(keys) : new Map();
  }

  #isHeldByUpload(object: { key: string; version?: string }): Promise<boolean> {
    const held = this.#o.isHeldByUpload;
    if (!held || !object.version) return Promise.resolve(false);
    return held(toFileId(object), object.version);
  }

  /** Objects last written before this are past the grace period. */
  #graceEnd(): Date {
    return new Date(this.#o.clock.now().getTime() - this.#o.graceSeconds * 1000);
  }

  async #removeObject(object: StoredObject): Promise<void> {
    if (object.version) await this.#o.blobs.delete(object.key, object.version);
    else await this.#o.sweeper.deleteStaging(object.key);
  }

  async #found(stray: Stray, remove: () => Promise<void>): Promise<void> {
    const totals = this.report.stray[stray.kind];
    totals.count += 1;
    totals.bytes += stray.sizeBytes ?? 0;
    if (this.report.items.length < maxReportedItems) this.report.items.push(stray);
    else this.report.itemsTruncated = true;
    if (!this.#apply) return;
    try {
      await remove();
      this.report.removed += 1;
    } catch {
      this.report.failed += 1; // the next pass tries again
    }
  }
}

/** Why an object is stray, or undefined when a record needs it (or may soon). */
function toStrayReason(
  object: StoredObject,
  record: BlobReferences | undefined,
  graceEnd: Date,
): string | undefined {
  // A key is `<projectId>/<fileId>`: a record of another project does not own it.
  const owner = record?.projectId === object.key.split('/')[0] ? record : undefined;
  if (!object.version) {
    // Staging objects (direct uploads) matter only until verify adopts them.
    if (!owner) return 'its file record is gone';
    return owner.verified ? 'its file is verified' : undefined;
  }
  // Files verified before blob versions existed pin none: keep all their bytes.
  if (owner?.verified && owner.blobVersion === null) return undefined;
  if (owner && (object.version === owner.blobVersion || object.version === owner.uploadBlobVersion)) {
    return undefined;
  }
  // A put that has not committed yet looks exactly like this: only age tells them apart.
  if (object.lastModified >= graceEnd) return undefined;
  return owner ? 'no longer referenced by its file record' : 'its file record is gone';
}

function toStray(object: StoredObject, reason: string): Stray {
  return {
    kind: object.version ? 'version' : 'staging',
    name: object.version ? `${object.key}.${object.version}` : object.key,
    sizeBytes: object.sizeBytes,
    since: object.lastModified,
    reason,
  };
}

function toUnfinishedStray(write: UnfinishedWrite): Stray {
  if (write.kind === 'temp-file') {
    const reason = 'no live process is writing it';
    return { kind: write.kind, name: write.name, sizeBytes: write.sizeBytes, since: write.startedAt, reason };
  }
  return {
    kind: write.kind,
    name: `${write.objectKey} (upload ${write.uploadId})`,
    sizeBytes: null,
    since: write.startedAt,
    reason: 'incomplete, started before the grace period',
  };
}

function toFileId(object: { key: string }): string {
  return object.key.split('/')[1] ?? '';
}
