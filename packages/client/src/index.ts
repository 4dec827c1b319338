import { AccountCalls } from './account-calls.ts';
import type {
  ArchiveLink,
  FilePage,
  FileRecord,
  FileVersion,
  FileWithLink,
  SearchPage,
  SharedPage,
  TrashPage,
  UserProfile,
} from './api-shapes.ts';
import { AuthCalls } from './auth-calls.ts';
import type { CofferClientOptions, Session } from './client-options.ts';
import { defaultResumeStore } from './default-resume-store.ts';
import { downloadContent } from './download-content.ts';
import { type CofferEvent, type EventsOptions, streamEvents } from './event-stream.ts';
import * as organizing from './file-organizing.ts';
import * as find from './find-calls.ts';
import { FolderCalls } from './folder-calls.ts';
import { MfaCalls } from './mfa-calls.ts';
import { PasskeyCalls } from './passkey-calls.ts';
import { type GetOptions, toGetQuery } from './rendition-options.ts';
import { aclPath, type ShareWith } from './request-paths.ts';
import { SessionCalls } from './session-calls.ts';
import * as start from './session-calls-start.ts';
import { SessionTransport } from './session-transport.ts';
import * as trash from './trash-calls.ts';
import type { UploadBody } from './upload-body.ts';
import { resumeUploadFile, type UploadContext, uploadFile } from './upload-file.ts';
import type { TransferOptions, UploadOptions } from './upload-options.ts';
import { deleteVersion, listVersions, replaceContent, restoreVersion } from './version-calls.ts';

export * from './public-exports.ts';

/**
 * A typed client for Coffer's API: sessions (login, signup, automatic refresh), the whole
 * upload in one call, downloads, sharing, listing and folders. Depends on nothing but `fetch` (and
 * XMLHttpRequest in browsers, for upload progress).
 */
export class CofferClient {
  /** The session and the JSON calls that carry it (session-transport.ts). */
  readonly #transport: SessionTransport;
  /** What upload() works with (upload-file.ts); its resume store: the client's option, else the default. */
  readonly #uploadContext: UploadContext;
  /** Password reset, email verification, sign-in by link, a new address, leaving (account-calls.ts). */
  readonly account: AccountCalls;
  /** Sign-in with identity providers (popup or redirect), linking, unlinking, guests to members (auth-calls.ts). */
  readonly auth: AuthCalls;
  /** One owner's folders: browse with counts and sizes, move and delete a whole folder (folder-calls.ts). */
  readonly folders: FolderCalls;
  /** Where the user is signed in: list and end sessions (session-calls.ts). */
  readonly sessions: SessionCalls;
  /** Passkeys: sign in with one, register, list and remove them (passkey-calls.ts). */
  readonly passkeys: PasskeyCalls;
  /** Second factors: the second step of a sign-in, enrolling and removing an authenticator app (mfa-calls.ts). */
  readonly mfa: MfaCalls;

  constructor(options: CofferClientOptions) {
    this.#transport = new SessionTransport(options);
    this.#uploadContext = {
      transport: this.#transport,
      resumeStore: options.resumeStore ?? defaultResumeStore(),
      get: (fileId) => this.get(fileId),
      delete: (fileId) => this.delete(fileId),
    };
    this.account = new AccountCalls(this.#transport);
    this.folders = new FolderCalls(this.#transport.call);
    this.sessions = new SessionCalls(this.#transport.call);
    this.auth = new AuthCalls(this.#transport);
    this.passkeys = new PasskeyCalls(this.#transport.call, (result) => this.#transport.startSession(result));
    this.mfa = new MfaCalls(this.#transport);
  }

  get session(): Session | undefined {
    return this.#transport.session;
  }

  // Sessions

  signup(input: { email: string; password: string; displayName?: string }): Promise<Session> {
    return start.signup(this.#transport, input);
  }

  /** A guest account without email or password (if the project allows them). */
  async signupAnonymous(): Promise<Session> {
    return this.#transport.startSession(await organizing.signupAnonymous(this.#transport.call));
  }

  login(input: { email: string; password: string }): Promise<Session> {
    return start.login(this.#transport, input);
  }

  /** Ends the session on the server too (its refresh token stops working). */
  logout(): Promise<void> {
    return start.logout(this.#transport);
  }

  /** Trades the refresh token for a new session; calls do it by themselves when a token expires. */
  refresh(): Promise<Session> {
    return this.#transport.refresh();
  }

  changePassword(input: { oldPassword: string; newPassword: string }): Promise<void> {
    return start.changePassword(this.#transport, input);
  }

  profile(): Promise<UserProfile> {
    return this.#transport.call({ method: 'GET', path: '/api/v1/user', auth: true });
  }

  // Files

  /**
   * Requests the upload, sends the content, verifies it: answers the readable record. Up to
   * `resumableThresholdBytes`, one PUT (retried whole); above, a resumable upload in chunks
   * that goes on where it stopped, within this call and in a later one (after a reload too).
   */
  upload(filePath: string, body: UploadBody, options: UploadOptions = {}): Promise<FileRecord> {
    return uploadFile(this.#uploadContext, filePath, body, options);
  }

  /**
   * Goes on with a resumable upload whose URL the app kept (from POST /api/v1/file with
   * `resumable: true`): sends what the server lacks of `body`, verifies: the readable record.
   */
  resumeUpload(
    upload: { fileId: string; resumableUrl: string },
    body: UploadBody,
    options: TransferOptions = {},
  ): Promise<FileRecord> {
    return resumeUploadFile(this.#uploadContext, upload, body, options);
  }

  /**
   * The record and a signed download link (valid `expiresInSeconds`, default 900); with
   * `rendition` or `width`/`height`/`resize`/`format`/`quality`, the link is to that rendition
   * of the image (a HEIC's photo, a video's poster frame at `posterAt`), rendered on its first fetch.
   */
  get(fileId: string, options: GetOptions = {}): Promise<FileWithLink> {
    return this.#transport.call({
      method: 'GET',
      path: `/api/v1/file/${encodeURIComponent(fileId)}`,
      query: toGetQuery(options),
      auth: true,
    });
  }

  /** The content, through a fresh signed link (a Response: `.blob()`, `.text()`, `.body`). */
  download(fileId: string, options: { signal?: AbortSignal } = {}): Promise<Response> {
    return downloadContent(this.#transport.fetch, () => this.get(fileId, { expiresInSeconds: 60 }), options);
  }

  /** Shares with a user (by id, or by the email of one of the project's users) or a role. */
  share(fileId: string, with_: ShareWith): Promise<FileRecord> {
    return this.#transport.call({ method: 'POST', path: aclPath(fileId, with_), auth: true });
  }

  /** Removes the entry (204: nothing to answer); removing an absent one is no error. */
  async unshare(fileId: string, with_: { userId: string } | { role: string }): Promise<void> {
    await this.#transport.call({ method: 'DELETE', path: aclPath(fileId, with_), auth: true });
  }

  async delete(fileId: string): Promise<void> {
    await this.#transport.call({
      method: 'DELETE',
      path: `/api/v1/file/${encodeURIComponent(fileId)}`,
      auth: true,
    });
  }

  /** Deletes several files (up to the API's limit): one outcome per id, in order. */
  deleteMany(fileIds: string[]): Promise<organizing.DeleteOutcome[]> {
    return organizing.deleteFiles(this.#transport.call, fileIds);
  }

  /** A copy at `filePath` in the caller's folder (its own ACL: the source's is not copied). */
  copy(fileId: string, to: { filePath: string; permissionScope?: 'user' | '*' }): Promise<FileRecord> {
    return organizing.copyFile(this.#transport.call, fileId, to);
  }

  move(fileId: string, to: { filePath: string }): Promise<FileRecord> {
    return organizing.moveFile(this.#transport.call, fileId, to);
  }

  /** Replaces the file's customData (the app's own JSON about it). */
  update(fileId: string, changes: { customData: unknown }): Promise<FileRecord> {
    return organizing.updateFile(this.#transport.call, fileId, changes);
  }

  /** New content under the same id (one PUT, retried whole): the record, the new version current. */
  replace(fileId: string, body: UploadBody, options: TransferOptions & { contentType?: string } = {}) {
    return replaceContent(this.#transport.call, this.#transport.fetch, fileId, body, options);
  }

  /** The file's versions, the current one first; read one with get(fileId, { versionId }). */
  versions(fileId: string): Promise<FileVersion[]> {
    return listVersions(this.#transport.call, fileId);
  }

  /** An earlier version's bytes become the current content again (a new version). */
  restoreVersion(fileId: string, versionId: string): Promise<FileRecord> {
    return restoreVersion(this.#transport.call, fileId, versionId);
  }

  deleteVersion(fileId: string, versionId: string): Promise<void> {
    return deleteVersion(this.#transport.call, fileId, versionId);
  }

  /** Every link handed out for the file stops working (upload, download, rendition links). */
  revokeLinks(fileId: string): Promise<void> {
    return organizing.revokeLinks(this.#transport.call, fileId);
  }

  /** A legal hold on the file (a project admin's token): no one may delete, replace or move it until release(). */
  hold(fileId: string, reason: string): Promise<FileRecord> {
    return organizing.holdFile(this.#transport.call, fileId, reason);
  }

  release(fileId: string): Promise<void> {
    return organizing.releaseFile(this.#transport.call, fileId);
  }

  /** Releases a file a re-scan quarantined (reads failed with FILE_QUARANTINED, 451): a project admin's. */
  releaseQuarantine(fileId: string): Promise<FileRecord> {
    return organizing.releaseQuarantine(this.#transport.call, fileId);
  }

  // Trash

  /** One page of the caller's trash (an admin: `owner`'s), latest first; `nextCursor` as `cursor`: the next. */
  trash(options: trash.TrashListOptions = {}): Promise<TrashPage> {
    return trash.listTrash(this.#transport.call, options);
  }

  /** A trashed file back at its old path, or at `filePath`: same id, ACL, shares and versions; old links stay dead. */
  restore(fileId: string, to: { filePath?: string } = {}): Promise<FileRecord> {
    return trash.restoreTrashed(this.#transport.call, fileId, to);
  }

  /** A trashed file gone for good, its bytes with it. */
  purge(fileId: string): Promise<void> {
    return trash.purgeTrashed(this.#transport.call, fileId);
  }

  /** The caller's whole trash (an admin: `owner`'s) purged: answers how many files went. */
  emptyTrash(options: trash.TrashOwnerOption = {}): Promise<number> {
    return trash.emptyTrash(this.#transport.call, options);
  }

  /** The project's user of this email (as the project allows: see the API's findUser). */
  findUser(email: string): Promise<UserProfile> {
    return organizing.findUser(this.#transport.call, email);
  }

  /** One page of the files the caller may read, newest first. */
  listPage(options: { filePath?: string; pageSize?: number; pageNumber?: number } = {}): Promise<FilePage> {
    return this.#transport.call({ method: 'GET', path: '/api/v1/file', query: options, auth: true });
  }

  /** Every file the caller may read, newest first, a page at a time: `for await (const file of client.list())`. */
  list(options: { filePath?: string; pageSize?: number } = {}): AsyncGenerator<FileRecord> {
    return find.listAllFiles((pageNumber) => this.listPage({ ...options, pageNumber }));
  }

  /** One page of the readable files matching every filter given; pass `nextCursor` as `cursor` for the next. */
  search(filters: find.SearchFilters = {}): Promise<SearchPage> {
    return find.searchFiles(this.#transport.call, filters);
  }

  /** Every readable file matching the filters, following `nextCursor`: `for await (const file of client.searchAll({ name }))`. */
  searchAll(filters: find.SearchFilters = {}): AsyncGenerator<FileRecord> {
    return find.searchAllFiles(this.#transport.call, filters);
  }

  /** A signed link to one ZIP of the files (by id, or an owner's folder), every file access-checked now. */
  archive(selection: find.ArchiveSelection, options: find.ArchiveOptions = {}): Promise<ArchiveLink> {
    return find.createArchive(this.#transport.call, selection, options);
  }

  /** One page of what other users shared with the caller (files and folders), newest share first (find-calls.ts). */
  shared(options: { pageSize?: number; cursor?: string } = {}): Promise<SharedPage> {
    return find.listShared(this.#transport.call, options);
  }

  // Events

  /**
   * The live events of the files this user may read (GET /api/v1/events), as they happen:
   * `for await (const event of coffer.events({ signal }))`. A dropped connection is opened
   * again by itself, with back-off, after the last event received (nothing lost, nothing
   * twice); an expired token is refreshed. Aborting `signal` ends the loop.
   */
  events(options: EventsOptions = {}): AsyncGenerator<CofferEvent> {
    return streamEvents(this.#transport.eventStream(), options);
  }
}
