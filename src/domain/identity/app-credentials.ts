import { notFound, validationFailed } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { newId, newSecret } from '../ids.ts';
import type { AppCredentialRepository } from './app-credential-repository.ts';
import { hashAppSecret } from './app-secrets.ts';
import type { Project } from './project-repository.ts';

/** A new credential: the secret exists only in this answer (it is stored hashed). */
export type IssuedAppCredential = { appId: string; appSecret: string };

/**
 * `coffer app create`: one more live credential for the project, beside those it holds, so
 * that apps can move to it before the old one is revoked (docs/security.md, "Rotating app
 * secrets"); also how an operator who lost a secret gets access again.
 */
export async function createAppCredential(
  credentials: AppCredentialRepository,
  project: Project,
  clock: Clock,
): Promise<IssuedAppCredential> {
  const appSecret = newSecret();
  const appId = newId();
  await credentials.create({
    appId,
    projectId: project.id,
    secretHash: hashAppSecret(appSecret),
    createdAt: clock.now(),
  });
  return { appId, appSecret };
}

/**
 * `coffer app revoke`: every process and node refuses the credential at its next access-epoch
 * read (INVALID_APP_CREDENTIALS). The project's last credential is kept unless `force`: a
 * project without one answers no app until `coffer app create`.
 */
export async function revokeAppCredential(
  credentials: AppCredentialRepository,
  project: Project,
  input: { appId: string; force: boolean },
): Promise<void> {
  const outcome = await credentials.delete(project.id, input.appId, { keepOne: !input.force });
  if (outcome === 'missing') throw notFound(`app ${input.appId} in project ${project.name}`);
  if (outcome === 'last') {
    throw validationFailed(
      `app ${input.appId} is the last app credential of project ${project.name}; ` +
        'create another first (coffer app create), or revoke it anyway with --force',
    );
  }
}
