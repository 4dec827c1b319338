import type { Services } from '../../services.ts';
import { installAppCredentials } from '../plugins/app-credentials.ts';
import { installAuthenticate } from '../plugins/authenticate.ts';
import { installNulTextGuard } from '../plugins/nul-text-guard.ts';
import { installNoStore } from '../plugins/response-hardening.ts';
import type { TypedApp } from '../route-context.ts';
import { changePassword } from './auth/change-password.ts';
import { login } from './auth/login.ts';
import { logout } from './auth/logout.ts';
import { refreshSession } from './auth/refresh-session.ts';
import { signup } from './auth/signup.ts';
import { signupAnonymous } from './auth/signup-anonymous.ts';
import { copyFile } from './files/copy-file.ts';
import { deleteFile } from './files/delete-file.ts';
import { deleteFiles } from './files/delete-files.ts';
import { getFile } from './files/get-file.ts';
import { listFiles } from './files/list-files.ts';
import { moveFile } from './files/move-file.ts';
import { requestUpload } from './files/request-upload.ts';
import { revokeLinks } from './files/revoke-links.ts';
import { shareFile } from './files/share-file.ts';
import { shareFileByEmail } from './files/share-file-by-email.ts';
import { unshareFile } from './files/unshare-file.ts';
import { updateFile } from './files/update-file.ts';
import { verifyUpload } from './files/verify-upload.ts';
import { findUser } from './users/find-user.ts';
import { getProfile } from './users/get-profile.ts';

const routes = [
  login,
  signup,
  signupAnonymous,
  refreshSession,
  logout,
  changePassword,
  getProfile,
  findUser,
  requestUpload,
  verifyUpload,
  shareFile,
  shareFileByEmail,
  unshareFile,
  getFile,
  listFiles,
  deleteFile,
  updateFile,
  revokeLinks,
  copyFile,
  moveFile,
  deleteFiles,
];

/** /api/v1: the JSON API behind barriers 2 (app credentials) and 3 (token). */
export async function controlPlane(app: TypedApp, services: Services): Promise<void> {
  // The original SDKs send share calls as POSTs with an empty body, sometimes still labelled
  // application/json: an empty JSON body is no body.
  // The default parser refuses __proto__ and constructor keys (prototype poisoning).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: any other body type is 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  installNoStore(app);
  installAppCredentials(app, { identity: services.identity, projects: services.repositories.projects });
  installAuthenticate(app, { identity: services.identity });
  installNulTextGuard(app);
  for (const route of routes) route(app, services);
}
