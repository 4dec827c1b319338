import fastifyCookie from '@fastify/cookie';
import type { Services } from '../../services.ts';
import type { TypedApp } from '../route-context.ts';
import { browseProjectFiles } from './browse-project-files.ts';
import { browseProjectFolder } from './browse-project-folder.ts';
import { installConsoleBarrier } from './console-barrier.ts';
import { consoleEventRoutes } from './console-event-routes.ts';
import { consoleHistoryRoutes } from './console-history-routes.ts';
import { createProjectApp } from './create-project-app.ts';
import { createProjectArchive } from './create-project-archive.ts';
import { createProjectRoute } from './create-project-route.ts';
import { createProjectUser } from './create-project-user.ts';
import { deleteProjectFile } from './delete-project-file.ts';
import { deleteProjectFolder } from './delete-project-folder.ts';
import { deleteProjectUser } from './delete-project-user.ts';
import { getProjectFile } from './get-project-file.ts';
import { getProjectFileContent } from './get-project-file-content.ts';
import { getProjectFileThumbnail } from './get-project-file-thumbnail.ts';
import { getProjectUsage } from './get-project-usage.ts';
import { getProjectUser } from './get-project-user.ts';
import { getSession } from './get-session.ts';
import { getUsage } from './get-usage.ts';
import { listProjectApps } from './list-project-apps.ts';
import { listProjectUsers } from './list-project-users.ts';
import { listProjects } from './list-projects.ts';
import { moveProjectFolder } from './move-project-folder.ts';
import { replaceOriginsRoute } from './replace-project-origins.ts';
import { requestProjectUpload } from './request-project-upload.ts';
import { resetUserMfa } from './reset-user-mfa.ts';
import { resetUserPassword } from './reset-user-password.ts';
import { revokeProjectApp } from './revoke-project-app.ts';
import { revokeProjectFileLinks } from './revoke-project-file-links.ts';
import { rotateKeys } from './rotate-keys.ts';
import { searchProjectFiles } from './search-project-files.ts';
import { sendUserResetMail } from './send-user-reset-mail.ts';
import { shareProjectFile } from './share-project-file.ts';
import { shareProjectFolder } from './share-project-folder.ts';
import { signIn } from './sign-in.ts';
import { signInWithLink } from './sign-in-with-link.ts';
import { signOut } from './sign-out.ts';
import { updateSettingsRoute } from './update-project-settings.ts';
import { updateProjectUser } from './update-project-user.ts';
import { userPasskeyRoutes } from './user-passkey-routes.ts';
import { userSessionRoutes } from './user-session-routes.ts';
import { verifyProjectUpload } from './verify-project-upload.ts';

const routes = [
  signIn,
  signInWithLink,
  getSession,
  signOut,
  listProjects,
  createProjectRoute,
  updateSettingsRoute,
  replaceOriginsRoute,
  listProjectApps,
  createProjectApp,
  revokeProjectApp,
  rotateKeys,
  listProjectUsers,
  getProjectUser,
  createProjectUser,
  updateProjectUser,
  resetUserPassword,
  resetUserMfa,
  sendUserResetMail,
  deleteProjectUser,
  ...userSessionRoutes,
  ...userPasskeyRoutes,
  browseProjectFiles,
  searchProjectFiles,
  getProjectFile,
  getProjectFileThumbnail,
  getProjectFileContent,
  requestProjectUpload,
  verifyProjectUpload,
  shareProjectFile,
  revokeProjectFileLinks,
  deleteProjectFile,
  browseProjectFolder,
  moveProjectFolder,
  deleteProjectFolder,
  shareProjectFolder,
  createProjectArchive,
  getUsage,
  getProjectUsage,
  ...consoleEventRoutes,
  ...consoleHistoryRoutes,
];

/**
 * /console/api: the console's own JSON API, for operators signed in with a session cookie.
 * It is the console's internal contract, not the public API: its routes stay out of the
 * OpenAPI document, and app credentials and bearer tokens open nothing here.
 */
export async function consolePlane(scope: TypedApp, services: Services): Promise<void> {
  await scope.register(fastifyCookie);
  installConsoleBarrier(scope, services);
  for (const route of routes) route(scope, services);
}
