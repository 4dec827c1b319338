import {
  accessDenied,
  accountDisabled,
  accountExists,
  identityInUse,
  oauthFailed,
} from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import { noPasswordHash, providerAccountDomain } from '../identity/accounts.ts';
import type { ClientContext, Session } from '../identity/identity-service.ts';
import { toClientInfo } from '../identity/identity-service.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import { newId } from '../ids.ts';
import type { ProviderIdentity } from './provider-client.ts';
import type { LinkedIdentity, UserIdentityRepository } from './sign-in-repositories.ts';

/** What deciding whose identity a sign-in established needs. */
export type IdentityResolution = {
  project: Project;
  provider: string;
  identity: ProviderIdentity;
  /** The user of a valid bearer token sent with the token fetch: the identity is linked to them. */
  caller?: User;
  client: ClientContext;
  users: UserRepository;
  identities: UserIdentityRepository;
  sessions: {
    startSession(
      user: User,
      project: Project,
      client: ClientContext,
      login: { method: string; provider: string },
    ): Promise<Session>;
  };
  /** Whether the user can sign in with a password (an unlink must leave one way in). */
  hasPassword(user: User): boolean;
  clock: Clock;
};

/**
 * Whose the identity is (issue 37, item 3): the caller's when a bearer came along (linked now,
 * unless another user holds it: IDENTITY_IN_USE); else the user it is linked to; else, for an
 * email an account already has, that account only when the project allows linking by email and
 * both the provider and the account have the address verified (else ACCOUNT_EXISTS: an account
 * is never taken over by whoever controls a provider account of that address); else a new user,
 * where signup is open.
 */
export async function resolveIdentity(r: IdentityResolution): Promise<User> {
  const { project, provider, identity, users, identities } = r;
  const linkedUserId = await identities.findUserId(project.id, provider, identity.subject);
  const linked = toLinked(r, linkedUserId ?? '');
  if (r.caller) {
    if (linkedUserId !== undefined && linkedUserId !== r.caller.id) throw identityInUse();
    if (linkedUserId === undefined) await link(r, r.caller);
    return r.caller;
  }
  if (linkedUserId !== undefined) {
    const user = await users.findById(project.id, linkedUserId);
    if (!user) throw oauthFailed('the account of this identity is gone');
    if (!user.enabled) throw accountDisabled();
    return user;
  }
  const existing = identity.email === null ? undefined : await users.findByEmail(project.id, identity.email);
  if (existing) {
    const mayLink =
      project.settings.oauthLinkByEmail && identity.emailVerified && existing.emailVerifiedAt !== null;
    if (!mayLink) throw accountExists();
    if (!existing.enabled) throw accountDisabled();
    await link(r, existing);
    return existing;
  }
  if (project.settings.signup === 'closed') throw accessDenied('Signup is closed for this project');
  const id = newId();
  const now = r.clock.now();
  const user = {
    id,
    projectId: project.id,
    email: identity.email ?? `${id.toLowerCase()}@${providerAccountDomain}`,
    passwordHash: noPasswordHash,
    role: 'user',
    displayName: identity.displayName,
    enabled: true,
  };
  const by = userActor(id, toClientInfo(r.client));
  const events = [
    toUserEvent('user.created', by, user, now, { provider }),
    toUserEvent('user.identity_linked', by, user, now, { provider }),
  ];
  return identities.createUser(
    user,
    identity.emailVerified ? now : null,
    { ...linked, userId: id },
    now,
    events,
  );
}

async function link(r: IdentityResolution, user: User): Promise<void> {
  const at = r.clock.now();
  const event = toUserEvent('user.identity_linked', userActor(user.id, toClientInfo(r.client)), user, at, {
    provider: r.provider,
  });
  if (!(await r.identities.link(r.project.id, toLinked(r, user.id), at, event))) throw identityInUse();
}

function toLinked(r: IdentityResolution, userId: string): LinkedIdentity {
  const { identity, provider } = r;
  return {
    provider,
    subject: identity.subject,
    userId,
    displayName: identity.displayName,
    email: identity.email,
  };
}
