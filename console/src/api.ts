import { hasStill } from '../../packages/client/src/media-info.ts';

export { formatDuration, isVideo } from '../../packages/client/src/media-info.ts';
export { formatBytes } from '../../src/domain/format-bytes.ts';

/** A refused console API call, with the service's error code and message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const base = '/console/api';

/**
 * Every console API call: the same-origin session cookie and the header the CSRF barrier asks
 * for; answers the JSON body, or throws ApiError with the service's message.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    credentials: 'same-origin',
    headers: {
      'X-Coffer-Console': '1',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (parsed ?? {}) as { code?: string; message?: string };
    throw new ApiError(
      response.status,
      error.code ?? 'ERROR',
      error.message ?? `Request failed (${response.status})`,
    );
  }
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The URL of a console API path (for links, images and frames, which send the cookie themselves). */
export const apiUrl = (path: string) => `${base}${path}`;

/** The message to show for a failure of any kind. */
export const describeError = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong';

export type Project = {
  id: string;
  name: string;
  appId: string;
  createdAt: string;
  allowedOrigins: string[];
  /** The values in force: a default where none was set. */
  settings: Record<string, unknown>;
  settingsSchema: SettingSchema[];
};

/** How a setting is edited (src/http/console/project-settings-schema.ts), with its default. */
export type SettingSchema = {
  name: string;
  description: string;
  default: unknown;
  /** Whether the setting may be none: an empty number field means none. */
  nullable: boolean;
} & (
  | { kind: 'flag' | 'list' | 'text' | 'table' }
  | { kind: 'choice'; choices: string[] }
  | { kind: 'number'; unit: 'bytes' | 'seconds' | 'days' | 'count'; min: number; max: number }
);

export type User = {
  userId: string;
  email: string;
  role: string;
  enabled: boolean;
  createdAt: string;
  updatedAt?: string;
  usage?: { files: number; bytes: number };
  /** Who signs the user in at providers (the user page's read only). */
  identities?: Identity[];
  /** Whether a second factor is on (issue 41; the user page's read only). */
  mfa?: { totp: boolean };
};

/** A user's identity at a sign-in provider (issue 37). */
export type Identity = { provider: string; id: string; displayName: string; email: string | null };

export type AclEntry = { scope: 'user' | 'role'; identifier: string };

export type FileView = {
  _id: string;
  __createdAt: string;
  filePath: string;
  creator: string;
  verified: boolean;
  permissionScope: string;
  meta: {
    ContentLength?: string;
    ContentType?: string;
    LastModified?: string;
    ChecksumSHA256?: string;
    /** Images and videos, a moment after verify: the size as displayed and a ThumbHash (base64). */
    width?: number;
    height?: number;
    placeholder?: string;
    /** Videos, a moment after verify (issue 39): the duration, the codecs (audio null: no sound). */
    durationSeconds?: number;
    videoCodec?: string;
    audioCodec?: string | null;
    /** The malware scanner's verdict (issue 42); absent when the file was not scanned. */
    scan?: {
      result: 'clean' | 'skipped';
      engine?: string;
      signatures?: string;
      reason?: 'oversize' | 'unavailable';
      scannedAt: string;
    };
  };
  etag?: string;
  /** The current version's id (verified files; the first version's is the file's own). */
  versionId?: string;
  /** A legal hold: no one may delete, purge, replace or move the file until it is lifted. */
  hold?: { reason: string; heldAt: string; heldBy: string };
  /** Set while a re-scan's hit keeps the bytes from everyone (issue 42): released or deleted by an operator. */
  quarantine?: { signature: string; quarantinedAt: string; versionId: string };
  customData?: unknown;
  acl: AclEntry[];
  /** The email of each account the record names (owner, access list), by id. */
  people?: Record<string, string>;
};

/** A person as people know them: their email, the id on hover (or the id, for an account gone). */
export const personOf = (file: FileView, id: string) => ({ label: file.people?.[id] ?? id, id });

/**
 * A file's bytes through the console: inline for its preview, or as a download. The etag in
 * the URL makes a new version a new URL: a preview shown before a restore is read again.
 */
export const contentUrl = (project: Project, file: FileView, download = false) =>
  apiUrl(
    `/projects/${project.id}/files/${file._id}/content?v=${encodeURIComponent(file.etag ?? '')}${download ? '&download=1' : ''}`,
  );

/** The file's media type without parameters, lower case ('' when unknown). */
export const mediaTypeOf = (file: FileView) =>
  (file.meta.ContentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Whether the service can render a thumbnail of the file: a verified image, HEIC photo or video
 * of a type it reads (the list @coffer/client keeps, as src/domain/renditions/renderable-source.ts).
 */
export const hasThumbnail = (file: FileView) => file.verified && hasStill(file);

/**
 * The file's 160×160 WebP thumbnail (a redirect to a short-lived rendition link: a HEIC's
 * photo, a video's poster frame); the etag in the URL keeps a browser from showing the
 * thumbnail of content the file no longer has.
 */
export const thumbnailUrl = (project: Project, file: FileView) =>
  apiUrl(`/projects/${project.id}/files/${file._id}/thumbnail?v=${encodeURIComponent(file.etag ?? '')}`);

/** A webhook endpoint of a project (never its secret, shown only when it is created). */
export type Webhook = {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /** Why the service disabled it (410 Gone, a failed retry schedule); null otherwise. */
  disabledReason: string | null;
  createdAt: string;
};

/** One event's delivery to one endpoint. */
export type Delivery = {
  id: string;
  /** The webhook-id header of every attempt. */
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  /** Each attempt, oldest first (at most as many as the retry schedule allows). */
  attemptLog: DeliveryAttempt[];
};

/** One attempt of a delivery: a status code, or the network error that came instead. */
export type DeliveryAttempt = {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The first 1 KiB of the answer's body as text; null without an answer. */
  responseBody: string | null;
  responseBodyTruncated: boolean;
};

/** An event of the audit log. */
export type AuditEvent = {
  id: string;
  type: string;
  timestamp: string;
  project: string;
  actor: {
    kind: string;
    id: string | null;
    ip: string | null;
    userAgent: string | null;
    /** The user's or operator's email (a deleted user's as recorded, else null). */
    email: string | null;
  };
  fileId: string | null;
  data: Record<string, unknown>;
  /** The user the event is about, by id and email. */
  subject: { userId: string; email: string | null } | null;
};

/** A direct subfolder: the files and bytes of its whole subtree, and its last change. */
export type FolderEntry = {
  name: string;
  path: string;
  fileCount: number;
  totalBytes: number;
  updatedAt: string;
};

/** One owner's folder: its subtree's counts, its subfolders (first page only) and a page of its own files. */
export type FolderPage = {
  /** The owner's user id. */
  owner: string;
  /** Their email; null for an account gone since. */
  ownerEmail: string | null;
  /** `/`-ended; '' for the owner's root. */
  path: string;
  fileCount: number;
  totalBytes: number;
  folders: FolderEntry[];
  foldersTruncated: boolean;
  files: FileView[];
  nextCursor: string | null;
};

/** A share reaching a folder: its user or role reads every file under `path` (the folder or an ancestor). */
export type FolderShare = AclEntry & { path: string; sharedAt: string };

/** The shares reaching a folder, the root's first, and the email of each account they name, by id. */
export type FolderShares = {
  owner: string;
  path: string;
  shares: FolderShare[];
  people: Record<string, string>;
};

/** One of a file's versions, the current one first. */
export type FileVersion = {
  versionId: string;
  etag: string;
  size: number;
  contentType: string;
  createdAt: string;
  /** A user's id, or `operator:<id>` for a version an operator restored. */
  createdBy: string;
  current: boolean;
};

/** A file in the trash: its record as it was, when and by whom it went, when it is purged. */
export type TrashedFileView = FileView & {
  trashedAt: string;
  trashedBy: string;
  /** Its content's bytes and its versions': what the trash keeps in the store. */
  heldBytes: number;
  purgeAt: string;
};
