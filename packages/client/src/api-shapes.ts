import type { components, operations } from './api-types.ts';

// The API's shapes under the names the client uses, from the generated OpenAPI types.

type Schemas = components['schemas'];
export type FileRecord = Schemas['FileRecord'];
export type FileWithLink = Schemas['FileWithLink'];
/** One of a file's versions (GET /api/v1/file/{fileId}/versions), the current one flagged. */
export type FileVersion = Schemas['FileVersion'];
/** Storage metadata; images and videos also get `width`, `height` and a ThumbHash `placeholder` a moment after verify, videos `durationSeconds`, `videoCodec` and `audioCodec` (null: no sound). */
export type FileMeta = FileRecord['meta'];
export type LoginResult = Schemas['LoginResult'];
export type UserProfile = Schemas['UserProfile'];
/** One of the user's sessions (GET /api/v1/user/sessions): where and how it began, `current`: the caller's. */
export type UserSession = Schemas['UserSession'];
export type UploadTicket = Schemas['UploadTicket'];
export type FilePage = Schemas['FilePage'];
export type FolderPage = Schemas['FolderPage'];
export type FolderEntry = Schemas['FolderEntry'];
export type FolderMove = operations['moveFolder']['responses'][200]['content']['application/json'];
export type FolderDeletion = operations['deleteFolder']['responses'][200]['content']['application/json'];
export type FolderShares = operations['listFolderShares']['responses'][200]['content']['application/json'];
export type FolderShare = FolderShares['shares'][number];
export type SharedPage = operations['listSharedWithMe']['responses'][200]['content']['application/json'];
export type SharedItem = SharedPage['items'][number];
/** One page of the trash (GET /api/v1/trash): `nextCursor` continues it, null on the last page. */
export type TrashPage = operations['listTrash']['responses'][200]['content']['application/json'];
/** A trashed file: its record as it was, with `trashedAt`, `trashedBy` and `purgeAt`. */
export type TrashItem = TrashPage['items'][number];
/** One page of a search (GET /api/v1/file with filters): `nextCursor`, when present, continues it. */
export type SearchPage = FilePage;
/** POST /api/v1/archives: a signed link to one ZIP of the files (`expiresAt`: Unix seconds). */
export type ArchiveLink = {
  url: string;
  expiresAt: number;
  fileCount: number;
  totalBytes: number;
  archiveBytes: number;
};
export type UploadRequest = operations['requestUpload']['requestBody']['content']['application/json'];

export type Call = {
  method: string;
  path: string;
  body?: unknown;
  auth?: boolean;
  /** A bearer token other than the session's: an enrolment token (MFA_ENROLMENT_REQUIRED). */
  bearer?: string;
  query?: Record<string, string | number | undefined>;
};
