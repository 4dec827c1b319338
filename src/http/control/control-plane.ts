import type { Services } from '../../services.ts';
import { installAppCredentials } from '../plugins/app-credentials.ts';
import { installAuthenticate } from '../plugins/authenticate.ts';
import { installNulTextGuard } from '../plugins/nul-text-guard.ts';
import { installNoStore } from '../plugins/response-hardening.ts';
import type { TypedApp } from '../route-context.ts';
import { accountRoutes } from './accounts/account-routes.ts';
import { archiveRoutes } from './archives/archive-routes.ts';
import { auditRoutes } from './audit/audit-routes.ts';
import { authRoutes } from './auth/auth-routes.ts';
import { eventRoutes } from './events/events-routes.ts';
import { fileRoutes } from './files/file-routes.ts';
import { folderChangeRoutes } from './folders/folder-change-routes.ts';
import { folderRoutes } from './folders/folder-routes.ts';
import { mfaRoutes } from './mfa/mfa-routes.ts';
import { multipartRoutes } from './multipart/multipart-routes.ts';
import { passkeyRoutes } from './passkeys/passkey-routes.ts';
import { signInRoutes } from './sign-in/sign-in-routes.ts';
import { trashRoutes } from './trash/trash-routes.ts';
import { uploadRoutes } from './uploads/upload-routes.ts';
import { userRoutes } from './users/user-routes.ts';
import { versionRoutes } from './versions/version-routes.ts';
import { webhookRoutes } from './webhooks/webhook-routes.ts';

// Each area lists its own routes, so a new capability adds its list here and touches no neighbour.
const routes = [
  ...authRoutes,
  ...signInRoutes,
  ...passkeyRoutes,
  ...accountRoutes,
  ...userRoutes,
  ...mfaRoutes,
  ...fileRoutes,
  ...versionRoutes,
  ...folderRoutes,
  ...folderChangeRoutes,
  ...trashRoutes,
  ...archiveRoutes,
  ...uploadRoutes,
  ...multipartRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...auditRoutes,
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
  installAppCredentials(app, {
    identity: services.identity,
    projects: services.repositories.projects,
    serviceKeys: services.serviceKeys,
  });
  installAuthenticate(app, { identity: services.identity, secondFactors: services.secondFactors });
  installNulTextGuard(app);
  for (const route of routes) route(app, services);
}
