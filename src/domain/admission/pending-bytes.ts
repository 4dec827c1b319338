import { fileNotFound, invalidSignature } from '../../errors/errors.ts';
import type { ByteRange } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import type { PendingUpload } from '../files/file-record.ts';
import type { FileStores } from '../files/file-stores.ts';
import type { GatewayLink } from '../files/get-linked-file.ts';
import { toStorageKey } from '../files/storage-key.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import { toUploadTarget } from '../versions/upload-target.ts';
import type { VersionRepository } from '../versions/version-repository.ts';
import { toAdmissionRecord } from './admission-record.ts';
import type { AdmissionRepository, AdmissionSlot } from './admission-repository.ts';

export type PendingBytesOptions = FileStores & {
  links: LinkIssuer;
  versions: VersionRepository;
  admissions: AdmissionRepository;
};

/** The pending bytes an admission link names, ready to stream. */
export type PendingBytes = {
  upload: PendingUpload;
  filePath: string;
  open(range: ByteRange): Promise<{ body: unknown }>;
};

/**
 * The admission hook's `url` (issue 42, item 3). security: pending bytes are readable by no
 * other way, so this is no side door: the link is signed (the server's link key, over the
 * file id, the version id and the expiry, as an `admit` operation no other link can be
 * replayed as), and it serves the bytes only while that exact pending upload exists and a
 * verify is asking the hook about it (its `asking` claim). Once the verify answered (allowed,
 * refused, unavailable), or another PUT replaced the bytes, the link answers 404.
 */
export class PendingBytesReader {
  readonly #o: PendingBytesOptions;

  constructor(options: PendingBytesOptions) {
    this.#o = options;
  }

  async open(link: GatewayLink): Promise<PendingBytes> {
    const versionId = link.version;
    if (versionId === undefined || link.generation !== 0) throw invalidSignature();
    const now = this.#o.clock.now();
    const claims = {
      operation: 'admit' as const,
      fileId: link.fileId,
      expiresAt: link.expiresAt,
      generation: 0,
    };
    await this.#o.links.assertGatewayLink({ ...claims, version: versionId }, link, toUnixSeconds(now));
    const file = await this.#o.files.findById(link.fileId);
    if (!file) throw fileNotFound();
    let target = file;
    let slot: AdmissionSlot['kind'] = 'file';
    if (versionId !== file.id) {
      const upload = await this.#o.versions.findUpload(versionId);
      if (!upload || upload.fileId !== file.id) throw fileNotFound();
      target = toUploadTarget(file, upload);
      slot = 'version';
    }
    const upload = target.pendingUpload;
    if (!upload || (slot === 'file' && file.verified)) throw fileNotFound();
    const text = await this.#o.admissions.read({
      kind: slot,
      id: target.id,
      blobVersion: upload.blobVersion,
    });
    const record = toAdmissionRecord(text ?? null);
    if (record?.result !== 'asking' || record.until <= now.getTime()) throw fileNotFound();
    const key = toStorageKey(target);
    return {
      upload,
      filePath: file.filePath,
      open: async (range) => {
        const blob = await this.#o.blobs.get(key, upload.blobVersion, { range });
        if (!blob) throw fileNotFound();
        return blob;
      },
    };
  }
}
