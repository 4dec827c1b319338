import type {
  Call,
  FileRecord,
  LoginResult,
  UploadRequest,
  UploadTicket,
  UserProfile,
} from './api-shapes.ts';
import { filePath } from './request-paths.ts';

/** How the client sends a call (its #call: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/** One id's outcome of a bulk delete: 204 when deleted, else the status a single delete would answer. */
export type DeleteOutcome = { fileId: string; statusCode: number; code?: string };

/** An upload's first step: its record and signed link (spec 4.2). */
export const requestUpload = (send: Send, body: UploadRequest) =>
  send<UploadTicket>({ method: 'POST', path: '/api/v1/file', body, auth: true });

/** An upload's last step: the content is checked and the record becomes readable. */
export const verifyUpload = (send: Send, fileId: string, etag: string) =>
  send<FileRecord>({ method: 'POST', path: `${filePath(fileId)}/verify`, body: { etag }, auth: true });

/*
 * The calls beyond the everyday ones (copy, move, customData, bulk delete, link revocation,
 * guests, finding a user by email), each the API operation of the same name, kept here so that
 * index.ts stays the client's outline.
 */

export const copyFile = (
  send: Send,
  fileId: string,
  to: { filePath: string; permissionScope?: 'user' | '*' },
) => send<FileRecord>({ method: 'POST', path: `${filePath(fileId)}/copy`, body: to, auth: true });

export const moveFile = (send: Send, fileId: string, to: { filePath: string }) =>
  send<FileRecord>({ method: 'POST', path: `${filePath(fileId)}/move`, body: to, auth: true });

export const updateFile = (send: Send, fileId: string, changes: { customData: unknown }) =>
  send<FileRecord>({ method: 'PATCH', path: filePath(fileId), body: changes, auth: true });

export const deleteFiles = async (send: Send, fileIds: string[]) =>
  (
    await send<{ results: DeleteOutcome[] }>({
      method: 'POST',
      path: '/api/v1/file/delete',
      body: { fileIds },
      auth: true,
    })
  ).results;

export const revokeLinks = async (send: Send, fileId: string) => {
  await send({ method: 'POST', path: `${filePath(fileId)}/links/revoke`, auth: true });
};

/** A legal hold (project admins): no delete, purge, replace or move until release(). */
export const holdFile = (send: Send, fileId: string, reason: string) =>
  send<FileRecord>({ method: 'POST', path: `${filePath(fileId)}/hold`, body: { reason }, auth: true });

export const releaseFile = async (send: Send, fileId: string) => {
  await send({ method: 'DELETE', path: `${filePath(fileId)}/hold`, auth: true });
};

/** Releases a file a re-scan quarantined (project admins): its bytes are readable again. */
export const releaseQuarantine = (send: Send, fileId: string) =>
  send<FileRecord>({ method: 'POST', path: `${filePath(fileId)}/quarantine/release`, auth: true });

export const signupAnonymous = (send: Send) =>
  send<LoginResult>({ method: 'POST', path: '/api/v1/auth/signup/anonymous' });

export const findUser = (send: Send, email: string) =>
  send<UserProfile>({ method: 'GET', path: '/api/v1/users', query: { email }, auth: true });
