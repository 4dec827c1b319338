import { LRUCache } from 'lru-cache';
import {
  fileNotFound,
  fileNotVerified,
  internal,
  invalidSignature,
  linkRevoked,
} from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { assertNotQuarantined } from '../admission/assert-not-quarantined.ts';
import type { BlobStore, ByteRange } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import type { DownloadableFile } from '../files/file-reading.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileStores } from '../files/file-stores.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { IssuedLink, LinkIssuer } from '../links/link-issuer.ts';
import type { BucketRule } from '../rate-limits/rate-limit-repository.ts';
import { type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import { assertVideoRenditionsOn } from './render-media.ts';
import type { RenderQueue } from './render-queue.ts';
import {
  assertNotRefused,
  type RenderRenditionOptions,
  renderRendition,
  storeRendition,
} from './render-rendition.ts';
import { assertRenderableSource, isVideoType, mayBeAnimated } from './renderable-source.ts';
import type { Rendition } from './rendition-repository.ts';
import { parseCanonicalSpec, type RenditionSpec, toCanonicalSpec } from './rendition-spec.ts';
import { type RenditionRequest, resolveRenditionSpec } from './resolve-rendition-spec.ts';

const consoleThumbnail: RenditionSpec = {
  width: 160,
  height: 160,
  resize: 'cover',
  format: 'webp',
  quality: 70,
  animated: false,
  posterAtMs: null,
};

/** A rendition link as the gateway read it: the file and spec from the path, the rest from the query. */
export type RenditionLink = {
  fileId: string;
  spec: string;
  expiresAt: number;
  generation: number;
  kid: string;
  sig: string;
};

export type RenditionsOptions = FileStores &
  Omit<RenderRenditionOptions, 'blobs' | 'clock' | 'settingsOf'> & {
    links: LinkIssuer;
    queue: RenderQueue;
    settingsOf: (projectId: string) => Promise<ProjectSettings>;
    /** Links to renditions not rendered yet, per user: each may cost a render and its bytes. */
    newRenditions?: { buckets: TokenBuckets; perUser: BucketRule };
    onServed?: (cached: boolean) => void;
  };

/**
 * Image renditions (issue 21): links to them under exactly the download's access rule, and the
 * rendered bytes behind a link, rendered once per file version and spec, then served from the
 * blob store.
 */
export class Renditions {
  readonly #o: RenditionsOptions;
  /**
   * Recorded renditions by file, source version and spec. Safe to keep: a row never changes,
   * and every request reads its file first (a deleted file, whose rows went with it, is 404
   * before this is asked).
   */
  readonly #recorded = new LRUCache<string, Rendition>({ max: 10_000 });

  constructor(options: RenditionsOptions) {
    this.#o = options;
  }

  /** GET /api/v1/file/:id with rendition parameters: the record and a link to that rendition. */
  async getWithRenditionLink(
    principal: Principal,
    fileId: string,
    request: RenditionRequest,
    expiresInSeconds: number,
  ): Promise<{ file: FileRecord; download: IssuedLink }> {
    return this.#issue(principal, fileId, expiresInSeconds, async (file) =>
      resolveRenditionSpec(request, await this.#o.settingsOf(file.projectId)),
    );
  }

  /**
   * The console's thumbnail of a file (an operator, as the project's admin): one fixed small
   * spec, whatever the project's `renditions` setting says its own clients may ask for.
   */
  async getThumbnailLink(principal: Principal, fileId: string, expiresInSeconds: number) {
    return this.#issue(principal, fileId, expiresInSeconds, async () => consoleThumbnail);
  }

  async #issue(
    principal: Principal,
    fileId: string,
    expiresInSeconds: number,
    specOf: (file: FileRecord) => Promise<RenditionSpec>,
  ): Promise<{ file: FileRecord; download: IssuedLink }> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'read');
    assertNotQuarantined(file);
    if (!file.verified || !file.content || !file.blobVersion) throw fileNotVerified();
    const asked = await specOf(file);
    // posterAt picks a video's frame, animated keeps a GIF's or WebP's frames: for any other
    // source either would only spell a second copy of the same rendition.
    const isVideo = isVideoType(file.content.contentType);
    const spec = toCanonicalSpec({
      ...asked,
      posterAtMs: isVideo ? asked.posterAtMs : null,
      animated: asked.animated && mayBeAnimated(file.content.contentType),
    });
    assertRenderableSource({ ...file, content: file.content }, this.#o.limits);
    if (isVideo) assertVideoRenditionsOn(await this.#o.settingsOf(file.projectId));
    const now = this.#o.clock.now();
    const rendered = await this.#o.renditions.find(file.id, file.blobVersion, spec);
    if (!rendered)
      await assertNotRefused(
        this.#o.renditions,
        { id: file.id, blobVersion: file.blobVersion },
        this.#o.limits,
        this.#o.timeoutSeconds,
      );
    const limit = this.#o.newRenditions;
    if (!rendered && limit && limit.perUser.burst > 0) {
      const key = toBucketKey('new-renditions', principal.projectId, principal.userId);
      await limit.buckets.takeAll([{ key, rule: limit.perUser }], now);
    }
    const expiresAt = toUnixSeconds(now) + expiresInSeconds;
    return { file, download: await this.#o.links.issueRendition(file, spec, expiresAt) };
  }

  /** Data plane: the rendition a link names, rendered now if it is not yet. */
  async getServable(
    link: RenditionLink,
  ): Promise<{ file: DownloadableFile; rendition: Rendition; bytes?: Buffer }> {
    const parsed = parseCanonicalSpec(link.spec);
    if (!parsed) throw invalidSignature();
    // The signature is checked before anything is looked up: a forged link learns nothing.
    await this.#o.links.assertGatewayLink(
      {
        operation: 'render',
        fileId: link.fileId,
        expiresAt: link.expiresAt,
        generation: link.generation,
        rendition: link.spec,
      },
      link,
      toUnixSeconds(this.#o.clock.now()),
    );
    const file = await this.#o.files.findById(link.fileId);
    if (!file) throw fileNotFound();
    assertNotQuarantined(file);
    if (link.generation !== file.linksGeneration) throw linkRevoked();
    if (!file.verified || !file.content || !file.etag || !file.blobVersion) throw fileNotVerified();
    const downloadable = file as DownloadableFile;
    const key = `${file.id}/${downloadable.blobVersion}/${link.spec}`;
    const cached =
      this.#recorded.get(key) ??
      (await this.#o.renditions.find(file.id, downloadable.blobVersion, link.spec));
    this.#o.onServed?.(cached !== undefined);
    if (cached) {
      this.#recorded.set(key, cached);
      return { file: downloadable, rendition: cached };
    }
    // A source refused before is answered from its record: no slot, no read of its bytes.
    await assertNotRefused(this.#o.renditions, downloadable, this.#o.limits, this.#o.timeoutSeconds);
    const spec = { canonical: link.spec, parsed };
    const { rendition, bytes } = await this.#o.queue.run(
      key,
      () => renderRendition(this.#o, downloadable, spec),
      (rendered) => storeRendition(this.#o, downloadable, spec, rendered),
    );
    this.#recorded.set(key, rendition);
    // A render just made is served from its bytes in memory (every request that joined it too),
    // not read back from the store it was written to.
    return { file: downloadable, rendition, bytes };
  }

  /** Opens the rendered bytes (or an inclusive range of them). */
  async open(rendition: Rendition, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blob = await (this.#o.blobs as BlobStore).get(rendition.blobKey, rendition.blobVersion, options);
    if (!blob)
      throw internal(new Error(`rendition ${rendition.blobKey}.${rendition.blobVersion} is missing`));
    return blob;
  }
}
