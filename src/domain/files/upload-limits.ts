import { contentTypeNotAllowed, fileTooLarge, quotaExceeded } from '../../errors/errors.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { isContentTypeAllowed } from '../identity/setting-parsers.ts';
import type { ByteLimit } from './content-check-stream.ts';
import type { QuotaLimits, StorageUsage, StorageUsageRepository } from './storage-usage-repository.ts';

export type UploadLimitsOptions = {
  /** The project's settings (cached: a change is seen within the access epoch's re-read). */
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
  usage: StorageUsageRepository;
  /** The server's own limit (COFFER_MAX_FILE_SIZE_BYTES); a project may only lower it. */
  serverMaxFileSizeBytes: number;
};

export type FileOwner = { projectId: string; userId: string };

/**
 * A project's limits and quotas (issue 10, item 10) for one new or growing file. The checks
 * here come first and cost two primary-key reads; the exact, atomic check is the quotas
 * handed to the repository write, which re-reads usage under lock after writing the rows
 * (persistence/repositories/storage-usage-check.ts).
 */
export class UploadLimits {
  readonly #o: UploadLimitsOptions;

  constructor(options: UploadLimitsOptions) {
    this.#o = options;
  }

  /** The largest file the project takes: the server's limit, or the project's when smaller. */
  async maxFileSizeBytes(projectId: string): Promise<number> {
    const { maxFileSizeBytes } = await this.#o.settingsOf(projectId);
    return Math.min(this.#o.serverMaxFileSizeBytes, maxFileSizeBytes ?? Number.POSITIVE_INFINITY);
  }

  async quotasOf(projectId: string): Promise<QuotaLimits> {
    return toQuotaLimits(await this.#o.settingsOf(projectId));
  }

  /** CONTENT_TYPE_NOT_ALLOWED unless the project's allowedContentTypes take this type. */
  async assertTypeAllowed(projectId: string, contentType: string): Promise<void> {
    const { allowedContentTypes } = await this.#o.settingsOf(projectId);
    if (!isContentTypeAllowed(contentType, allowedContentTypes)) throw contentTypeNotAllowed(contentType);
  }

  /**
   * Whether the owner has room for one more file of `sizeBytes` (0 when not known yet) of this
   * type: FILE_TOO_LARGE, CONTENT_TYPE_NOT_ALLOWED or QUOTA_EXCEEDED otherwise. Answers the
   * quotas to hand to the repository write that adds the file (it checks them atomically).
   * Any code that adds a file (an upload request, a copy) calls this first.
   */
  async assertRoomForFile(
    owner: FileOwner,
    file: { sizeBytes: number; contentType?: string },
  ): Promise<QuotaLimits> {
    const maxBytes = await this.maxFileSizeBytes(owner.projectId);
    if (file.sizeBytes > maxBytes) throw fileTooLarge(maxBytes);
    if (file.contentType !== undefined) await this.assertTypeAllowed(owner.projectId, file.contentType);
    const quotas = await this.quotasOf(owner.projectId);
    if (!hasQuota(quotas)) return quotas;
    const usage = await this.#o.usage.find(owner);
    const after = (used: StorageUsage) => ({ files: used.files + 1, bytes: used.bytes + file.sizeBytes });
    assertQuotas({ user: after(usage.user), project: after(usage.project) }, quotas, {
      files: true,
      bytes: file.sizeBytes > 0,
    });
    return quotas;
  }

  /**
   * While an upload's bytes stream: the project's file size, then the room the quotas leave
   * (the file's bytes already counted — a pending upload, a declared length — are its own).
   */
  async streamingLimits(owner: FileOwner, countedBytes: number): Promise<ByteLimit[]> {
    const maxBytes = await this.maxFileSizeBytes(owner.projectId);
    const limits: ByteLimit[] = [{ maxBytes, error: () => fileTooLarge(maxBytes) }];
    const quotas = await this.quotasOf(owner.projectId);
    if (quotas.userQuotaBytes === null && quotas.projectQuotaBytes === null) return limits;
    const usage = await this.#o.usage.find(owner);
    const rooms = [
      [quotas.userQuotaBytes, usage.user.bytes, 'bytes per user'],
      [quotas.projectQuotaBytes, usage.project.bytes, 'bytes per project'],
    ] as const;
    for (const [quota, used, what] of rooms) {
      if (quota === null) continue;
      limits.push({
        // A replacement no larger than what the file already counts never grows usage.
        maxBytes: Math.max(countedBytes, quota - used + countedBytes),
        error: () => quotaExceeded(`at most ${quota} ${what}`),
      });
    }
    return limits;
  }
}

export function toQuotaLimits(settings: ProjectSettings): QuotaLimits {
  const { userQuotaBytes, userQuotaFiles, projectQuotaBytes, projectQuotaFiles } = settings;
  return { userQuotaBytes, userQuotaFiles, projectQuotaBytes, projectQuotaFiles };
}

function hasQuota(quotas: QuotaLimits): boolean {
  return Object.values(quotas).some((limit) => limit !== null);
}

/** QUOTA_EXCEEDED when a counter that grew (`grew`) is over its limit; the message names the quota. */
export function assertQuotas(
  usage: { user: StorageUsage; project: StorageUsage },
  quotas: QuotaLimits,
  grew: { files: boolean; bytes: boolean },
): void {
  const checks = [
    [grew.files, usage.user.files, quotas.userQuotaFiles, 'files per user'],
    [grew.bytes, usage.user.bytes, quotas.userQuotaBytes, 'bytes per user'],
    [grew.files, usage.project.files, quotas.projectQuotaFiles, 'files per project'],
    [grew.bytes, usage.project.bytes, quotas.projectQuotaBytes, 'bytes per project'],
  ] as const;
  for (const [grown, used, limit, what] of checks) {
    if (grown && limit !== null && used > limit) throw quotaExceeded(`at most ${limit} ${what}`);
  }
}
