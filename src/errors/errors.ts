import { AppError, type StoreName } from './app-error.ts';

// One factory per error code. Messages are for humans; clients branch on `code`.

export const validationFailed = (message: string) => new AppError('VALIDATION_FAILED', message);
export const invalidFilePath = (reason: string) =>
  new AppError('INVALID_FILE_PATH', `filePath is invalid: ${reason}`);
/** A search (issue 40) no index serves within the examination budget; `reason` says what to narrow. */
export const queryTooBroad = (reason: string) =>
  new AppError('QUERY_TOO_BROAD', `This search is too broad to answer at a page's cost: ${reason}`);
export const appCredentialsRequired = () =>
  new AppError('APP_CREDENTIALS_REQUIRED', 'The sb-app-id header is required');
export const invalidAppCredentials = () =>
  new AppError('INVALID_APP_CREDENTIALS', 'The app id or app secret is not valid');
export const authRequired = (message = 'An Authorization: Bearer <token> header is required') =>
  new AppError('AUTH_REQUIRED', message);
export const invalidToken = () => new AppError('INVALID_TOKEN', 'The access token is not valid');
/** A mail's token (reset, verification, magic link): unknown, spent, replaced or expired; 400, not 401 (it is a field, not the caller's credential). */
export const invalidAccountToken = () =>
  new AppError(
    'INVALID_TOKEN',
    'The token is not valid: it is unknown, was used or replaced, or has expired',
    {
      statusCode: 400,
    },
  );
export const emailNotVerified = () =>
  new AppError(
    'EMAIL_NOT_VERIFIED',
    'Confirm your email address first: this project signs in verified addresses only',
  );
export const tokenExpired = () => new AppError('TOKEN_EXPIRED', 'The access token has expired');
export const invalidLogin = (message = 'Email or password is wrong') =>
  new AppError('INVALID_LOGIN', message);
export const reauthenticationRequired = () =>
  new AppError(
    'REAUTHENTICATION_REQUIRED',
    'Confirm it is you: send your password or a code of your second factor, or sign in again',
  );
export const invalidRefreshToken = () =>
  new AppError(
    'INVALID_REFRESH_TOKEN',
    'The refresh token is not valid, has expired or was revoked; log in again',
  );
export const originNotAllowed = (
  message = 'This origin is not allowed for the app; send sb-app-secret or allow the origin',
) => new AppError('ORIGIN_NOT_ALLOWED', message);
export const accessDenied = (message = 'You may not do this with this resource') =>
  new AppError('ACCESS_DENIED', message);
export const accountDisabled = () => new AppError('ACCOUNT_DISABLED', 'This account is disabled');
export const httpsRequired = () =>
  new AppError('HTTPS_REQUIRED', 'This service is only available over HTTPS');
export const invalidSignature = () => new AppError('INVALID_SIGNATURE', 'The link signature is not valid');
export const linkExpired = () => new AppError('LINK_EXPIRED', 'The link has expired');
export const linkRevoked = () =>
  new AppError('LINK_REVOKED', "The file's links were revoked since this one was issued; ask for a new link");
export const fileNotFound = () => new AppError('FILE_NOT_FOUND', 'No such file');
export const userNotFound = () => new AppError('USER_NOT_FOUND', 'No such user');
/** Also what a folder the caller may not read answers: its existence is not told (issue 36). */
export const folderNotFound = () => new AppError('FOLDER_NOT_FOUND', 'No such folder');
export const notFound = (what = 'route') => new AppError('NOT_FOUND', `No such ${what}`);
/** RFC 9110 §15.5.6: the answer names the methods the URL takes, in `Allow` as in the message. */
export const methodNotAllowed = (allowedMethods?: readonly string[]) =>
  allowedMethods === undefined
    ? new AppError('METHOD_NOT_ALLOWED', 'Method not allowed on this URL')
    : new AppError('METHOD_NOT_ALLOWED', `This URL takes ${allowedMethods.join(', ')}`, {
        headers: { allow: allowedMethods.join(', ') },
      });
export const fileExists = () => new AppError('FILE_EXISTS', 'You already have a file at this filePath');
export const emailTaken = () => new AppError('EMAIL_TAKEN', 'An account with this email already exists');
export const uploadMissing = () =>
  new AppError('UPLOAD_MISSING', 'No content has been uploaded for this file yet');
export const etagMismatch = () =>
  new AppError('ETAG_MISMATCH', 'The etag does not match the uploaded content');
export const alreadyVerified = () =>
  new AppError('ALREADY_VERIFIED', 'The upload is verified; its content can no longer be replaced');
export const fileNotVerified = () =>
  new AppError('FILE_NOT_VERIFIED', 'The file has no verified content yet');
export const bodyTooLarge = (limitBytes: number) =>
  new AppError('BODY_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`);
export const fileTooLarge = (limitBytes: number) =>
  new AppError('FILE_TOO_LARGE', `The file exceeds the maximum size of ${limitBytes} bytes`);
export const unsupportedMediaType = (message = 'Send the body as application/json') =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', message);
/** RFC 9110 §15.5.17: a 416 says how long the content is, in Content-Range. */
export const rangeNotSatisfiable = (sizeBytes: number) =>
  new AppError('RANGE_NOT_SATISFIABLE', `The range starts past the end of the content (${sizeBytes} bytes)`, {
    headers: { 'content-range': `bytes */${sizeBytes}` },
  });
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 'Too many requests; retry later', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
export const internal = (cause?: unknown) => new AppError('INTERNAL', 'Internal error', { cause });
export const unavailable = (what: StoreName, cause?: unknown) =>
  new AppError('UNAVAILABLE', `${what} is unavailable; retry shortly`, { cause, store: what });
/** GET /metrics without COFFER_METRICS_TOKEN, from anywhere but this machine directly. */
export const metricsLoopbackOnly = () =>
  new AppError(
    'ACCESS_DENIED',
    'Metrics are served to clients on this machine only; set COFFER_METRICS_TOKEN to scrape them from elsewhere',
  );
/** GET /metrics: the primary could not gather every worker's metrics (one is stuck or restarting). */
export const metricsUnavailable = (cause: unknown) =>
  new AppError('UNAVAILABLE', "The workers' metrics could not be gathered; retry shortly", { cause });
/** /readyz: a store fails its check. No request failed, so metrics do not count it as a store error. */
export const storeNotReady = (what: string, cause?: unknown) =>
  new AppError('UNAVAILABLE', `${what} is unavailable; retry shortly`, { cause });
/** A store refused a write for lack of space (disk full, quota); nothing partial was kept. */
export const storageFull = (what: StoreName, cause?: unknown) =>
  new AppError('STORAGE_FULL', `The ${what} is full; nothing was stored. Retry once space is freed`, {
    cause,
    store: what,
  });
// The rest of a request that timed out is never read, so its connection cannot carry another.
export const requestTimeout = () =>
  new AppError('REQUEST_TIMEOUT', 'The request was not sent completely in time', {
    headers: { connection: 'close' },
  });
export const headersTooLarge = () => new AppError('HEADERS_TOO_LARGE', 'The request headers are too large');

/** An upload body that differs from what its upload request declared; `what` names the difference. */
export const contentMismatch = (what: string) =>
  new AppError('CONTENT_MISMATCH', `The upload differs from what its request declared: ${what}`);
/** A project or user quota (bytes or files) that the request would exceed; `what` names it. */
export const quotaExceeded = (what: string) => new AppError('QUOTA_EXCEEDED', `Quota exceeded: ${what}`);
export const contentTypeNotAllowed = (contentType: string) =>
  new AppError(
    'CONTENT_TYPE_NOT_ALLOWED',
    `The project does not allow uploads of type ${JSON.stringify(contentType)}`,
  );

// Resumable uploads (tus 1.0, issue 20).
/** security: one answer for an unknown, tampered, expired or revoked upload URL: no oracle. */
export const uploadNotFound = () =>
  new AppError(
    'UPLOAD_NOT_FOUND',
    'No such upload (it may have expired, finished elsewhere or been revoked)',
  );
export const uploadOffsetConflict = (offset: number) =>
  new AppError('UPLOAD_OFFSET_CONFLICT', `Upload-Offset must be the upload's current offset, ${offset}`, {
    headers: { 'upload-offset': String(offset) },
  });
export const uploadFinished = () =>
  new AppError(
    'UPLOAD_FINISHED',
    'The upload is complete; it takes no more bytes and can no longer be terminated',
  );
/** tus: a URL whose upload is no longer the file's content answers 410 (clients start afresh). */
export const uploadReplaced = () =>
  new AppError(
    'UPLOAD_REPLACED',
    "The upload finished, but the file's content has been replaced since: upload again to change it",
  );
/** Retry-After: the seconds until the lease can be taken (its holder's expiry, or its idle limit). */
export const uploadLocked = (retryAfterSeconds: number) =>
  new AppError(
    'UPLOAD_LOCKED',
    `Another request is writing to this upload; retry in ${retryAfterSeconds} s`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
export const tusVersionUnsupported = () =>
  new AppError('TUS_VERSION_UNSUPPORTED', 'Only tus 1.0.0 is spoken here (Tus-Resumable: 1.0.0)', {
    headers: { 'tus-version': '1.0.0' },
  });
export const checksumMismatch = (algorithm: string) =>
  new AppError(
    'CHECKSUM_MISMATCH',
    `The chunk's ${algorithm} does not match Upload-Checksum; it was discarded`,
  );

// Image renditions (issue 21): honest answers, never the original in place of a rendition.
export const unsupportedMedia = (what: string) =>
  new AppError(
    'UNSUPPORTED_MEDIA',
    `${what} is not rendered (Coffer renders JPEG, PNG, WebP, GIF, AVIF and HEIC photos, and MP4, MOV and WebM videos)`,
  );
export const imageTooLarge = (reason: string) =>
  new AppError('IMAGE_TOO_LARGE', `The image is too large to render: ${reason}`);
/** A refusal recorded for a source version (rendition-repository.ts), answered word for word. */
export const imageTooLargeAsRecorded = (message: string) => new AppError('IMAGE_TOO_LARGE', message);
export const mediaUnreadableAsRecorded = (message: string) => new AppError('MEDIA_UNREADABLE', message);
export const imageUnreadable = (cause?: unknown) =>
  new AppError('IMAGE_UNREADABLE', 'The image could not be decoded (damaged or truncated)', { cause });
/**
 * Issue 39: phone media (HEIC, video) whose decoder refused, crashed on, or ran past its time
 * limit with the bytes (the tool was killed; the server goes on). Remembered for the version.
 */
export const mediaUnreadable = (detail?: string) =>
  new AppError(
    'MEDIA_UNREADABLE',
    `This file's media could not be decoded${detail ? `: ${detail}` : ' (damaged, truncated or too slow to decode)'}`,
  );
export const renditionsDisabled = (message: string) => new AppError('RENDITIONS_DISABLED', message);
export const renderBusy = (reason = 'Too many images are being rendered') =>
  new AppError('RENDER_BUSY', `${reason}; retry shortly`, { headers: { 'retry-after': '2' } });

// Folders (issue 36; folderNotFound is beside the other *_NOT_FOUND).
/** A folder move whose target path is already taken: `filePath` is the first clash, in path order. */
export const folderConflict = (filePath: string) =>
  new AppError(
    'FOLDER_CONFLICT',
    `The move would put a file at ${JSON.stringify(filePath)}, which is taken; nothing was moved`,
  );
/** A folder move that would carry a folder share onto a folder already holding other files. */
export const folderShareConflict = (path: string) =>
  new AppError(
    'FOLDER_CONFLICT',
    `The move would carry a folder share onto ${JSON.stringify(path)}, which holds other files it would then reach; unshare first or move elsewhere. Nothing was moved`,
  );
export const folderTooLarge = (fileCount: number, maxFiles: number) =>
  new AppError(
    'FOLDER_TOO_LARGE',
    `The folder holds ${fileCount} files; one call moves or deletes at most ${maxFiles} (maxFolderOperationFiles)`,
  );

// Sign-in with identity providers (issue 37).
export const oauthProviderNotFound = (name: string) =>
  new AppError('OAUTH_PROVIDER_NOT_FOUND', `The project has no sign-in provider ${JSON.stringify(name)}`);
export const oauthStateNotFound = () =>
  new AppError(
    'OAUTH_STATE_NOT_FOUND',
    'No finished sign-in has this state: it was never started, not finished yet, already taken, or older than 5 minutes',
  );
export const oauthFailed = (reason: string) => new AppError('OAUTH_FAILED', `The sign-in failed: ${reason}`);
export const oauthProviderUnavailable = (cause?: unknown) =>
  new AppError(
    'OAUTH_PROVIDER_UNAVAILABLE',
    'The identity provider could not be reached; try again shortly',
    {
      cause,
    },
  );
export const identityInUse = () =>
  new AppError('IDENTITY_IN_USE', 'This identity is already linked to another user of the project');
export const accountExists = (
  message = 'An account with this email exists: sign in to it and link the provider from there',
) => new AppError('ACCOUNT_EXISTS', message);
/**
 * A trusted issuer's token whose keys (JWKS) cannot be fetched: the token may be good, so it is
 * neither accepted nor called invalid; the call may be retried (issue 37, item 4).
 */
export const trustedIssuerUnavailable = (cause?: unknown) =>
  new AppError('UNAVAILABLE', "The token issuer's keys could not be fetched; retry shortly", { cause });
export const lastSignInMethod = () =>
  new AppError(
    'LAST_SIGN_IN_METHOD',
    'This is the last way the user can sign in: set a password or link another provider first',
  );
/** A held file (issue 38, item 4): no delete, purge, replace or move until an admin lifts the hold. */
export const fileOnHold = (filePath?: string) =>
  new AppError(
    'FILE_ON_HOLD',
    filePath === undefined
      ? 'The file is on hold: it cannot be deleted, replaced or moved until a project admin lifts the hold'
      : `${JSON.stringify(filePath)} is on hold: nothing was changed; a project admin lifts the hold first`,
  );
/** A versionId that is not one of the file's versions (never was, pruned, or deleted). */
export const versionNotFound = () =>
  new AppError('VERSION_NOT_FOUND', 'The file has no version with this id');

// Archives (issue 40).
/** At most this many refused ids are listed in an error's details; the rest are counted. */
const listedIdsMax = 100;
/** The ids a many-file call refused, in an error's details: the first 100, and how many more. */
export const toFileIdDetails = (fileIds: readonly string[]) => ({
  fileIds: fileIds.slice(0, listedIdsMax),
  moreFileIds: Math.max(0, fileIds.length - listedIdsMax),
});
export const archiveAccessDenied = (fileIds: readonly string[]) =>
  new AppError('ACCESS_DENIED', `You may not read ${fileIds.length} of these files; no archive was made`, {
    details: toFileIdDetails(fileIds),
  });
export const archiveFilesNotFound = (fileIds: readonly string[]) =>
  new AppError('FILE_NOT_FOUND', `${fileIds.length} of these files do not exist; no archive was made`, {
    details: toFileIdDetails(fileIds),
  });
export const archiveFilesNotVerified = (fileIds: readonly string[]) =>
  new AppError(
    'FILE_NOT_VERIFIED',
    `${fileIds.length} of these files are not verified yet; no archive was made`,
    { details: toFileIdDetails(fileIds) },
  );
export const archiveTooLarge = (what: string) =>
  new AppError('ARCHIVE_TOO_LARGE', `The archive would hold ${what}; no archive was made`);
export const archiveStale = () =>
  new AppError(
    'ARCHIVE_STALE',
    'A file of this archive was deleted, replaced or had its links revoked since the archive was made; make a new one',
  );

// Sessions (issue 41, item 4).
/** Not a live session of this user: another user's id answers the same (no oracle across users). */
export const sessionNotFound = () => new AppError('SESSION_NOT_FOUND', 'No such session of this user');
// Passkeys (issue 41).
export const passkeyLimitReached = (max: number) =>
  new AppError('PASSKEY_LIMIT_REACHED', `A user holds at most ${max} passkeys; remove one first`);
export const passkeyNotAccepted = () => new AppError('INVALID_LOGIN', 'The passkey was not accepted');
