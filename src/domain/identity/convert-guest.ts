import type { Clock } from '../clock.ts';
import { userActor } from '../events/user-events.ts';
import { assertConvertible, convertAnonymousAccount } from './convert-anonymous-account.ts';
import type { Project } from './project-repository.ts';
import { type ClientContext, toClientInfo } from './session-types.ts';
import type { SignupThrottle } from './signup-throttle.ts';
import type { User, UserRepository } from './user-repository.ts';

/**
 * A guest's conversion as IdentityService.convertAnonymous runs it (issue 37, item 5): the
 * refusals first (a member or a closed project draws on no allowance), then the change, drawing
 * on signup's allowances (an argon2 hash each).
 */
export function convertGuest(
  o: { users: UserRepository; signupThrottle: SignupThrottle; clock: Clock },
  project: Project,
  user: User,
  input: { email: string; password: string; displayName?: string },
  client: ClientContext,
): Promise<User> {
  assertConvertible(project, user);
  const attempt = { projectId: project.id, clientAddress: client.clientAddress };
  const guest = { user, by: userActor(user.id, toClientInfo(client)), at: o.clock.now() };
  return o.signupThrottle.guard(attempt, () => convertAnonymousAccount(o.users, project, guest, input));
}
