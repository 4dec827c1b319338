/**
 * The interfaces the domain needs from the outside world. Persistence and blob stores
 * implement them; http and cli use them through the Services bundle. Times are Date
 * objects here; the wire formats live in http/.
 */
import type { Readable } from 'node:stream';
import type { CustomData } from './files/custom-data.ts';
import type { ProjectSettings } from './identity/project-settings.ts';

export type AclScope = 'user' | 'role';
export type AclEntry = { scope: AclScope; identifier: string };
export type PermissionScope = 'user' | '*';

export type Project = {
  id: string;
  name: string;
  /**
   * The app id the project was created with (its first app credential, which may have been
   * revoked since): the live credentials are the AppCredentialRepository's.
   */
  appId: string;
  allowedOrigins: string[];
  /** The admin role given at creation: the default of settings.adminRoles (project-settings.ts). */
  adminRole: string;
  settings: ProjectSettings;
  createdAt: Date;
};

export type User = {
  id: string;
  projectId: string;
  email: string;
  passwordHash: string;
  role: string;
  displayName: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

/** Storage metadata recorded at verification (spec 2.1 `meta`). */
export type FileContentInfo = {
  sizeBytes: number;
  contentType: string;
  lastModified: Date;
  /** base64 of the SHA-256 digest of the bytes; null when not known (direct uploads without one declared). */
  checksumSha256?: string | null;
};

/**
 * The bytes a PUT stored for a file that is not verified yet: the version verify will pin
 * (the last PUT to commit before verify wins).
 */
export type PendingUpload = {
  blobVersion: string;
  etag: string;
  sizeBytes: number;
  contentType: string;
  lastModified: Date;
  /** base64 of the SHA-256 digest, computed while the bytes streamed. */
  checksumSha256?: string | null;
};

/**
 * What an upload request declared about the bytes to come (issue 10, item 6); the gateway
 * refuses a body that differs (CONTENT_MISMATCH). Null: not declared.
 */
export type UploadContract = {
  sizeBytes: number | null;
  contentType: string | null;
  /** base64 of the SHA-256 digest, as S3's x-amz-checksum-sha256. */
  checksumSha256: string | null;
};

export type FileRecord = {
  id: string;
  projectId: string;
  creatorId: string;
  filePath: string;
  permissionScope: PermissionScope;
  verified: boolean;
  /** Quoted entity tag, set at verification. */
  etag: string | null;
  content: FileContentInfo | null;
  /**
   * The immutable blob version a verified file serves, pinned at verification: a later PUT
   * writes another version and can never change what a verified record describes.
   */
  blobVersion: string | null;
  /** Unverified files: the last upload committed, if any. */
  pendingUpload: PendingUpload | null;
  /** Unix seconds after which the upload link no longer works. */
  uploadExpiresAt: number;
  /** In insertion order, the creator first. */
  acl: AclEntry[];
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** The app's own JSON object (at most 4 KiB); null when never set. */
  customData: CustomData | null;
  /**
   * Signed into every download link; revoking links or removing an ACL entry adds one, and
   * links of an older generation stop (docs/security.md, "Revoking links").
   */
  linksGeneration: number;
  /**
   * A copy serves its source's bytes: the file whose storage key holds blobVersion (null: this
   * one). Versions never change, so sharing them is safe; the last record naming one removes it.
   */
  blobFileId: string | null;
  /** What the upload request declared. */
  declared: UploadContract;
};

/** With the SHA-256 (hex) of its first app secret (shown once, at creation). */
export type NewProject = Omit<Project, 'createdAt'> & { appSecretHash: string };
export type NewUser = Omit<User, 'createdAt' | 'updatedAt' | 'version'>;
export type NewFile = Pick<
  FileRecord,
  'id' | 'projectId' | 'creatorId' | 'filePath' | 'permissionScope' | 'uploadExpiresAt'
> & { customData?: CustomData | null; declared?: UploadContract };

export interface ProjectRepository {
  create(project: NewProject): Promise<Project>;
  findById(id: string): Promise<Project | undefined>;
  findByName(name: string): Promise<Project | undefined>;
  /** The project a live app credential names. */
  findByAppId(appId: string): Promise<Project | undefined>;
  /** Replaces the project's settings; undefined when there is no such project. */
  updateSettings(id: string, settings: ProjectSettings): Promise<Project | undefined>;
  /** Whether any project allows this origin (answers CORS preflights, which carry no app id). */
  isOriginAllowedAnywhere(origin: string): Promise<boolean>;
  /** Every project, by name (operators hold a handful, not millions). */
  list(): Promise<Project[]>;
  /** Adds and removes allowed origins in one transaction; undefined when there is no such project. */
  changeAllowedOrigins(
    id: string,
    change: { add: readonly string[]; remove: readonly string[] },
  ): Promise<Project | undefined>;
}

/** A file's bytes to remove with it: every blob version its record names. */
export type FileBlobs = { fileId: string; blobVersions: string[] };

/**
 * What `coffer project delete` removes, a bounded batch at a time, so that it can stop at any
 * point (a crash, a kill) and be run again to finish.
 */
export interface ProjectDeletionRepository {
  /** How much the project holds (what the confirmation names). */
  count(projectId: string): Promise<{ users: number; files: number }>;
  /** Deletes every app credential: from the next access-epoch read on, no call reaches the project. */
  deleteAppCredentials(projectId: string): Promise<number>;
  /** Up to `limit` of the project's files and the blob versions they name. */
  findFiles(projectId: string, limit: number): Promise<FileBlobs[]>;
  /** Deletes these file records with their ACL entries. */
  deleteFiles(fileIds: readonly string[]): Promise<number>;
  /** Deletes up to `limit` sessions (refresh-token families, their tokens with them). */
  deleteSessions(projectId: string, limit: number): Promise<number>;
  /** Deletes up to `limit` users. */
  deleteUsers(projectId: string, limit: number): Promise<number>;
  /** Deletes the project row once nothing refers to it; false when there is no such project. */
  deleteProject(projectId: string): Promise<boolean>;
}

export interface UserRepository {
  /** Throws EMAIL_TAKEN when the project already has this email (case-insensitive). */
  create(user: NewUser): Promise<User>;
  findById(projectId: string, id: string): Promise<User | undefined>;
  findByEmail(projectId: string, email: string): Promise<User | undefined>;
  /** Returns the updated user, or undefined when there is no such user. */
  setRole(projectId: string, id: string, role: string): Promise<User | undefined>;
  setEnabled(projectId: string, id: string, enabled: boolean): Promise<User | undefined>;
  setPasswordHash(projectId: string, id: string, passwordHash: string): Promise<User | undefined>;
  /**
   * One page of the project's users in email order (case-insensitive), `limit` at most, after
   * the cursor of the page before; `next` is absent on the last page.
   */
  list(projectId: string, page: { after?: string; limit: number }): Promise<{ users: User[]; next?: string }>;
  /** Removes the user row only (coffer user delete removes what it owns first); answers whether it existed. */
  delete(projectId: string, id: string): Promise<boolean>;
}

/** A refresh token as stored: its hash, never the token (docs/security.md, "Sessions"). */
export type RefreshToken = {
  tokenHash: string;
  /** The login it descends from: revoking a family revokes every token rotated from it. */
  familyId: string;
  projectId: string;
  userId: string;
  expiresAt: Date;
  /** When it was rotated; null while it is live. */
  retiredAt: Date | null;
};

export type NewRefreshToken = { tokenHash: string; expiresAt: Date };

/** What rotate() found: the token it used, and whether a new one was added to its family. */
export type RotationOutcome =
  | { outcome: 'rotated'; token: RefreshToken }
  /** Retired longer ago than the grace: the caller revokes the family (a stolen token). */
  | { outcome: 'reused'; token: RefreshToken }
  /** Unknown, expired or of a revoked family. */
  | { outcome: 'invalid' };

export interface RefreshTokenRepository {
  /** Starts a family (a login) with its first token. */
  createFamily(
    family: { id: string; projectId: string; userId: string },
    token: NewRefreshToken,
    now: Date,
  ): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | undefined>;
  /**
   * In one transaction: when the token is live at `now`, or was retired at most `graceMs`
   * before it (a client retrying after a lost answer), retires it and adds `next` to its
   * family; concurrent rotations of one token never both find it live. Writes nothing otherwise.
   */
  rotate(tokenHash: string, next: NewRefreshToken, now: Date, graceMs: number): Promise<RotationOutcome>;
  /** Revokes a family: deletes it and its tokens. Answers whether it existed. */
  deleteFamily(familyId: string): Promise<boolean>;
  /** Revokes every family of the user but `exceptFamilyId`; answers how many. */
  deleteUserFamilies(projectId: string, userId: string, exceptFamilyId?: string): Promise<number>;
  /** Deletes at most `limit` families whose every token has expired at `now`; answers how many. */
  deleteExpired(now: Date, limit: number): Promise<number>;
}

/** One app credential (`sb-app-id` + `sb-app-secret`); a project holds one or more. */
export type AppCredential = {
  appId: string;
  projectId: string;
  /** SHA-256 (hex) of the app secret; the secret itself is shown once, at creation. */
  secretHash: string;
  createdAt: Date;
};

/** App credentials; every change reaches every process at its next access-epoch read. */
export interface AppCredentialRepository {
  create(credential: AppCredential): Promise<void>;
  findByAppId(appId: string): Promise<AppCredential | undefined>;
  /** The project's credentials, oldest first. */
  listByProject(projectId: string): Promise<AppCredential[]>;
  /**
   * Deletes the credential of this project; with `keepOne`, only while the project holds
   * another (checked in the same transaction). Answers 'deleted', 'missing' or 'last'.
   */
  delete(
    projectId: string,
    appId: string,
    options: { keepOne: boolean },
  ): Promise<'deleted' | 'missing' | 'last'>;
}

/**
 * A number the database bumps whenever a project or a user changes or is removed, by any
 * process or node: caches of projects and users stay valid while it stays the same.
 */
export interface AccessEpochRepository {
  read(): Promise<number>;
}

/** Files and bytes held (issue 10, item 10): verified content, pending uploads and declared lengths. */
export type StorageUsage = { files: number; bytes: number };

/** The quotas of a project's settings (null: none); file rows that grow usage past one are refused. */
export type QuotaLimits = {
  userQuotaBytes: number | null;
  userQuotaFiles: number | null;
  projectQuotaBytes: number | null;
  projectQuotaFiles: number | null;
};

/** Usage as the database keeps it, in the same transactions as the file rows it counts. */
export interface StorageUsageRepository {
  /** The usage of one user and of their project: two primary-key reads, never a scan. */
  find(owner: { projectId: string; userId: string }): Promise<{ user: StorageUsage; project: StorageUsage }>;
  /** Every project's usage: a primary-key read per project, never a read of their users. */
  listProjects(): Promise<Array<StorageUsage & { projectId: string; name: string }>>;
  /** The usage of some users of a project (a primary-key read each); users with none are left out. */
  forUsers(projectId: string, userIds: string[]): Promise<Map<string, StorageUsage>>;
  /** A project's heaviest users, most bytes first (an index range: `limit` rows read). */
  topUsers(
    projectId: string,
    limit: number,
  ): Promise<Array<StorageUsage & { userId: string; email: string }>>;
}

/** An abandoned upload that create() replaced: its bytes are the caller's to remove. */
export type ReplacedUpload = { id: string; pendingBlobVersion: string | null };

/** A never-verified record the sweep removed: its bytes (if any) are the caller's to remove. */
export type SweptUpload = ReplacedUpload & { projectId: string };

export interface FileRepository {
  /**
   * Inserts the record with the creator as its first ACL entry. When the creator already has
   * a record at this filePath: replaces it if it is unverified and its upload link has expired
   * at `now`, otherwise throws FILE_EXISTS. With `quotas`, a record that takes its owner past
   * one (one more file, its declared length) is refused with QUOTA_EXCEEDED, atomically.
   */
  create(
    file: NewFile,
    now: Date,
    quotas?: QuotaLimits,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload }>;
  findById(id: string): Promise<FileRecord | undefined>;
  /** Files the reader may list (creator, user entry, role entry; all of the project for admins), newest first. */
  list(query: FileListQuery): Promise<{ files: FileRecord[]; total: number }>;
  /** The console's browser: files in path order from a (path, id), an index range a page. */
  browse(page: BrowsePage): Promise<FileRecord[]>;
  /** Returns whether a record was deleted (its ACL goes with it). */
  delete(id: string): Promise<boolean>;
  /** Ids of the files a user created, in id order after `afterId`, `limit` at most (an index range). */
  listIdsCreatedBy(
    projectId: string,
    creatorId: string,
    page: { afterId?: string; limit: number },
  ): Promise<string[]>;
  /** Ids of files (of any creator) whose ACL has a `user` entry naming this user, `limit` at most. */
  listIdsSharedWithUser(projectId: string, userId: string, limit: number): Promise<string[]>;
  /**
   * Removes the entry if present, bumping version and updatedAt when it was there, and the
   * links generation too: the links it let its users obtain stop with it.
   */
  removeAclEntry(id: string, entry: AclEntry, now: Date): Promise<FileRecord | undefined>;
  /** Adds the entry if absent, bumping version and updatedAt in the same transaction. */
  addAclEntry(id: string, entry: AclEntry, now: Date): Promise<FileRecord | undefined>;
  /**
   * Commits an upload to an unverified record, replacing its pending upload, and answers the
   * blob version it replaced (null: none) so the caller can remove those bytes; 'verified' or
   * 'missing' when the record no longer takes uploads. Concurrent commits to one record are
   * serialized by the database (each replaces exactly the one before it); the record's version
   * is not bumped (an upload is not a change of the record the API shows). With `quotas`, an
   * upload that grows its owner's bytes past one is refused with QUOTA_EXCEEDED, atomically.
   */
  commitUpload(
    id: string,
    upload: PendingUpload,
    quotas?: QuotaLimits,
  ): Promise<{ replaced: string | null } | 'verified' | 'missing'>;
  /**
   * Marks the file verified and pins `blobVersion`, only while the file is unverified and its
   * pending upload is still `pendingVersion` (null: none, as in direct-upload mode); bumps
   * version once. Undefined when either changed.
   */
  markVerified(
    id: string,
    verification: {
      blobVersion: string;
      etag: string;
      content: FileContentInfo;
      pendingVersion: string | null;
    },
    now: Date,
    /** Direct uploads: the bytes first count at verify, so verify checks the quotas. */
    quotas?: QuotaLimits,
  ): Promise<FileRecord | undefined>;
  /**
   * Deletes at most `limit` records that are still unverified and whose upload link expired
   * before `expiredBefore` (Unix seconds), oldest first, and answers them. The condition is
   * re-checked by the delete itself, so a verify that committed first keeps its record.
   */
  deleteExpiredUnverified(expiredBefore: number, limit: number): Promise<SweptUpload[]>;
  /**
   * Adds a verified copy of the verified file `sourceId` (same version, content and customData;
   * `blobFileId` its source's; the creator its only ACL entry), locking the source row so a
   * concurrent delete of it waits or wins. Replaces an abandoned upload at the target path like
   * create(); FILE_EXISTS for a live record there; undefined when the source is gone or unverified.
   */
  createCopy(
    copy: Pick<NewFile, 'id' | 'projectId' | 'creatorId' | 'filePath' | 'permissionScope'> & {
      sourceId: string;
    },
    now: Date,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined>;
  /**
   * Moves the file to another filePath of its creator, bumping version and updatedAt (the same
   * path: no change). Replaces an abandoned upload there like create(); FILE_EXISTS for a live
   * record; undefined when there is no such file.
   */
  move(
    id: string,
    filePath: string,
    now: Date,
  ): Promise<{ file: FileRecord; replaced?: ReplacedUpload } | undefined>;
  /** Whether any record still serves or holds this version of `<project>/<blobFileId>` (copies included). */
  isBlobReferenced(blobFileId: string, version: string): Promise<boolean>;
  /** For a page of storage-key file ids: the versions of each that copies serve (coffer gc). */
  findSharedBlobVersions(blobFileIds: readonly string[]): Promise<Map<string, Set<string>>>;
  /** Moves the links generation on (every download link issued before stops); false when there is no such file. */
  revokeLinks(id: string): Promise<boolean>;
  /** Replaces the file's customData, bumping version and updatedAt; undefined when there is no such file. */
  updateCustomData(id: string, customData: CustomData, now: Date): Promise<FileRecord | undefined>;
  /**
   * What the given records say about blob versions (coffer gc): one indexed lookup for a page
   * of file ids, never a scan. Ids without a record are absent from the map.
   */
  findBlobReferences(ids: readonly string[]): Promise<Map<string, BlobReferences>>;
}

/** The blob versions a file record needs kept: the one it serves and the one an upload left pending. */
export type BlobReferences = {
  projectId: string;
  verified: boolean;
  blobVersion: string | null;
  uploadBlobVersion: string | null;
};

export type FileListQuery = {
  projectId: string;
  readerId: string;
  readerRole: string;
  isAdmin: boolean;
  /** Only files whose filePath starts with this (literal, no wildcards). */
  filePathPrefix?: string;
  limit: number;
  offset: number;
};

/** Secret keys for HMAC signing (links, tokens), shared by every node through the database. */
export type SigningKey = { id: string; purpose: 'link' | 'token'; secret: Buffer; createdAt: Date };

export interface SigningKeyRepository {
  /** All keys of a purpose, newest first. */
  list(purpose: SigningKey['purpose']): Promise<SigningKey[]>;
  create(key: SigningKey): Promise<void>;
  /** Deletes these keys (retired ones: `coffer keys rotate`); answers how many there were. */
  delete(ids: readonly string[]): Promise<number>;
}

/** A token bucket: `burst` tokens at most, one more back every `refillIntervalMs`. */
export type BucketRule = { burst: number; refillIntervalMs: number };

/**
 * Rate-limit buckets, shared by every process and node through the metadata store. A bucket
 * is kept as the moment it is full again (`fullAt`, Unix ms); no row, or a moment that has
 * passed, is a full bucket. It has a token at `now` while `fullAt - now <= (burst - 1) * refillIntervalMs`.
 */
export interface RateLimitRepository {
  /** When each of these buckets is full again, for those that are not full at `now`. */
  findFullAt(keys: string[], now: Date): Promise<Map<string, number>>;
  /**
   * Takes one token if the bucket has one, in one atomic statement (concurrent takes never
   * overdraw it); answers whether it did and when the bucket is full again.
   */
  take(key: string, rule: BucketRule, now: Date): Promise<{ taken: boolean; fullAt: number }>;
  /** Gives back a token taken for an attempt that turned out not to count. */
  giveBack(key: string, rule: BucketRule): Promise<void>;
  /** Forgets a bucket (it is full again). */
  delete(key: string): Promise<void>;
  /** Deletes at most `limit` buckets that are full at `now`, oldest first; answers how many. */
  deleteFull(now: Date, limit: number): Promise<number>;
}

/** What a store knows of one stored version. */
export type BlobInfo = {
  sizeBytes: number;
  lastModified: Date;
};

/** What put() stored: a new immutable version of the key. */
export type StoredBlob = BlobInfo & {
  version: string;
  /** Quoted entity tag (the MD5 of the bytes for single-part objects). */
  etag: string;
};

export type PutBlobOptions = {
  contentType: string;
  /** The store fails with FILE_TOO_LARGE as soon as more bytes arrive, and keeps nothing. */
  maxBytes: number;
  signal?: AbortSignal;
};

export type PresignDownloadOptions = {
  expiresInSeconds: number;
  /** Sent back as Content-Disposition so the browser saves it under this name. */
  fileName: string;
  contentType: string;
};

/** What a direct upload must carry, signed so that the store itself refuses anything else. */
export type PresignUploadOptions = {
  expiresInSeconds: number;
  contentType: string;
  /** Declared at the upload request: signed as Content-Length. */
  contentLength?: number;
  /** Declared at the upload request (base64): signed as x-amz-checksum-sha256. */
  checksumSha256?: string;
};

export type ByteRange = { start: number; end: number };

/**
 * Where file bytes live. Keys come from server ids (`<projectId>/<fileId>`), never user input.
 * Every put() writes a new immutable version of its key: bytes once stored under a version
 * never change, and which version counts is decided by the file record, not by the store.
 */
export interface BlobStore {
  /** Streams the body into a new version, published whole or not at all. */
  put(key: string, body: Readable, options: PutBlobOptions): Promise<StoredBlob>;
  head(key: string, version: string): Promise<BlobInfo | undefined>;
  /**
   * Opens the version (or an inclusive byte range of it); undefined when it does not exist.
   * The body is a Buffer when the store already holds those bytes in memory (small versions).
   */
  get(
    key: string,
    version: string,
    options?: { range?: ByteRange; signal?: AbortSignal },
  ): Promise<{ info: BlobInfo; body: Readable | Buffer } | undefined>;
  /** Deleting a missing version is not an error. */
  delete(key: string, version: string): Promise<void>;
  /**
   * Stores that serve bytes themselves (S3) hand out their own signed GET URL, so download
   * bytes never pass through Coffer; stores without it are served by the /blob/v1 gateway.
   */
  presignDownload?(key: string, version: string, options: PresignDownloadOptions): Promise<string>;
  /**
   * Direct-upload mode: a signed PUT URL to the store itself, binding the content type. Its
   * object is a staging area the client may overwrite until verify adopts it.
   */
  presignUpload?(key: string, options: PresignUploadOptions): Promise<string>;
  /**
   * Direct-upload mode, at verify: copies the staging object into a new immutable version
   * if (and only if) its entity tag is still `etag`, then removes the staging object.
   * Undefined when there is no staging object; ETAG_MISMATCH when it holds other bytes.
   */
  adoptDirectUpload?(key: string, etag: string): Promise<StoredBlob | undefined>;
  /**
   * Readiness: throws UNAVAILABLE when the store cannot be reached and STORAGE_FULL when it
   * cannot take writes (a small write probe that leaves nothing behind).
   */
  check(): Promise<void>;
}

/** An object a store holds: a version of a key, or (direct uploads) a key's staging object. */
export type StoredObject = {
  key: string;
  /** Undefined for a staging object. */
  version?: string;
  sizeBytes: number;
  lastModified: Date;
};

/** A write nobody will finish: a temp file of a dead writer, or an incomplete multipart upload. */
export type UnfinishedWrite =
  | { kind: 'temp-file'; name: string; sizeBytes: number; startedAt: Date }
  | { kind: 'multipart-upload'; objectKey: string; uploadId: string; startedAt: Date };

/**
 * How stray bytes are found and removed (`coffer gc`, and periodically in `serve`). Listings
 * come page by page, so a store of millions of objects is never held in memory at once, and
 * show only what the store itself wrote (keys and names in its own format).
 */
export interface BlobSweeper {
  /** Every version and staging object, a page (at most `pageSize`) at a time, in no set order. */
  listObjects(options: { pageSize: number; signal?: AbortSignal }): AsyncIterable<StoredObject[]>;
  /** Removes a key's staging object; a missing one is not an error. */
  deleteStaging(key: string): Promise<void>;
  /**
   * Writes nobody will finish: temp files whose writer is gone (or untouched for an hour),
   * multipart uploads started before `startedBefore`.
   */
  listUnfinishedWrites(options: {
    startedBefore: Date;
    pageSize: number;
    signal?: AbortSignal;
  }): AsyncIterable<UnfinishedWrite[]>;
  /** Removes a temp file or aborts a multipart upload; one already gone is not an error. */
  removeUnfinishedWrite(write: UnfinishedWrite): Promise<void>;
}

/** Everything that has to be closed on shutdown. */
export interface Closable {
  close(): Promise<void>;
}

/** Someone who administers the whole service through the console (not a project's user). */
export type Operator = { id: string; email: string; createdAt: Date };

export type OperatorRepository = {
  /** Throws EMAIL_TAKEN when an operator has this (lower-cased) email. */
  create(operator: Operator & { passwordHash: string }): Promise<void>;
  findByEmail(email: string): Promise<(Operator & { passwordHash: string }) | undefined>;
  list(): Promise<Operator[]>;
  /** Removes the operator and their sessions; false when there was none. */
  deleteByEmail(email: string): Promise<boolean>;
  createSession(session: {
    tokenHash: string;
    operatorId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** The operator of a session that has not expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<Operator | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Stores the link; links that expired by `now` go meanwhile (the table holds a few rows). */
  createSignInLink(
    link: { tokenHash: string; operatorId: string; expiresAt: Date },
    now: Date,
  ): Promise<void>;
  /** Removes the link and answers its operator, if it had not expired at `now`: a link works once. */
  consumeSignInLink(tokenHash: string, now: Date): Promise<Operator | undefined>;
};

/** A page of the console's file browser (persistence/repositories/browse-files.ts). */
export type BrowsePage = {
  projectId: string;
  creatorId?: string;
  /** Only paths that start with this (literal). */
  prefix?: string;
  /** The last file of the page before: the next page starts after its (filePath, id). */
  after?: { filePath: string; id: string };
  limit: number;
};
