import type { Setting } from '../setting.ts';

/** What signed links allow: the largest upload and how long upload and download links last. */
export const linkSettings = {
  maxFileSizeBytes: {
    env: 'COFFER_MAX_FILE_SIZE_BYTES',
    kind: 'integer',
    defaultValue: 5 * 1024 ** 3,
    min: 1,
    doc: 'Largest file an upload may carry; enforced while streaming (413 FILE_TOO_LARGE).',
  },
  uploadLinkTtlSeconds: {
    env: 'COFFER_UPLOAD_LINK_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 1,
    doc: 'How long an upload link (putFileUrl) stays valid.',
  },
  maxLinkTtlSeconds: {
    env: 'COFFER_MAX_LINK_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 604800,
    min: 1,
    doc: 'Upper bound of expiresInSeconds for download links (at most 604800, 7 days).',
  },
} as const satisfies Record<string, Setting>;
