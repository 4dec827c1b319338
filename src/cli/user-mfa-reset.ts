import type { Config } from '../config/config.ts';
import { operatorActor } from '../domain/events/user-events.ts';
import { resetFactors } from '../domain/mfa/reset-factors.ts';
import { userNotFound } from '../errors/errors.ts';
import { getProject, withStores } from './admin-commands.ts';

/**
 * `coffer user mfa-reset <email>`: a user who lost their authenticator and recovery codes signs
 * in with the password again; `user.mfa_disabled` records an operator on the host (no id).
 */
export async function userMfaReset(config: Config, input: { project: string; email: string }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    const user = await repositories.users.findByEmail(project.id, input.email);
    if (!user) throw userNotFound();
    const reset = await resetFactors(repositories.mfa, user, operatorActor(null), new Date());
    return { userId: user.id, reset };
  });
}
