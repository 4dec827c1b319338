/** What @coffer/client exports beside CofferClient: its errors, helpers and the types of its answers. */
export { AccountCalls, type IdentityProof, tokenFromLink } from './account-calls.ts';
export type {
  ArchiveLink,
  FileMeta,
  FilePage,
  FileRecord,
  FileVersion,
  FileWithLink,
  FolderDeletion,
  FolderEntry,
  FolderMove,
  FolderPage,
  FolderShare,
  FolderShares,
  LoginResult,
  SearchPage,
  SharedItem,
  SharedPage,
  TrashItem,
  TrashPage,
  UploadTicket,
  UserProfile,
  UserSession,
} from './api-shapes.ts';
export type { AuthCalls, SignInOptions } from './auth-calls.ts';
export type { CofferClientOptions, Session } from './client-options.ts';
export { CofferError } from './errors.ts';
export type { CofferEvent, EventsOptions } from './event-stream.ts';
export type { DeleteOutcome } from './file-organizing.ts';
export { defaultResumeDirectory, fileResumeStore } from './file-resume-store.ts';
export type {
  ArchiveOptions,
  ArchiveSelection,
  CustomDataValue,
  SearchFilters,
} from './find-calls.ts';
export type { FolderCalls, FolderListOptions, FolderOwnerOption } from './folder-calls.ts';
export { durationOf, formatDuration, hasStill, isVideo, type MediaRecord } from './media-info.ts';
export type { MfaCalls, SecondFactorProof, TotpEnrolment } from './mfa-calls.ts';
export type { Passkey, PasskeyCalls, PasskeyOptionsJSON } from './passkey-calls.ts';
export type {
  GetOptions,
  RenditionFormat,
  RenditionParameters,
  RenditionPreset,
  RenditionResize,
  StillChoice,
} from './rendition-options.ts';
export type { ShareWith } from './request-paths.ts';
export {
  memoryResumeStore,
  type ResumeState,
  type ResumeStore,
  webStorageResumeStore,
} from './resume-store.ts';
export type { SessionCalls } from './session-calls.ts';
export type { OpenSignInWindow, SignInWindow } from './sign-in-window.ts';
export type { TrashListOptions, TrashOwnerOption } from './trash-calls.ts';
export type { UploadBody, UploadPhase, UploadProgress } from './upload-body.ts';
export type { TransferOptions, UploadOptions } from './upload-options.ts';
