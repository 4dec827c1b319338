import {
  accessDenied,
  accountDisabled,
  accountExists,
  identityInUse,
  oauthFailed,
} from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import { anonymousRole, noPasswordHash, providerAccountDomain } from '../identity/accounts.ts';
import { assertConvertible, memberRole, toConvertedEvent } from '../identity/convert-anonymous-account.ts';
import type { ClientContext, Session, SignInMethod } from '../identity/identity-service.ts';
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
    /** A sign-in's session through the second-factor gate (issue 41): may stop at MFA_REQUIRED. */
    signIn(user: User, project: Project, client: ClientContext, how: SignInMethod): Promise<Session>;
    /** After a guest's conversion: its sessions (deleted with it) and cached account are forgotten. */
    accountConverted(user: User): Promise<void>;
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
 * where signup is open. A guest (role `anonymous`) who links becomes a member (issue 37, item 5).
 */
export async function resolveIdentity(r: IdentityResolution): Promise<User> {
  const { project, provider, identity, users, identities } = r;
  const linkedUserId = await identities.findUserId(project.id, provider, identity.subject);
  const linked = toLinked(r, linkedUserId ?? '');
  if (r.caller) {
    if (linkedUserId !== undefined && linkedUserId !== r.caller.id) throw identityInUse();
    if (linkedUserId === undefined && r.caller.role === anonymousRole) return convertGuest(r, r.caller);
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

/**
 * Linking from a guest's session converts the guest: same id (its files and shares stay), role
 * `user`, the provider's address (verified when the provider says so, else a generated one when
 * it names none), with `user.identity_linked` and `user.converted` in one transaction. An address
 * another account has is ACCOUNT_EXISTS and nothing is linked: that account is never merged into.
 */
async function convertGuest(r: IdentityResolution, guest: User): Promise<User> {
  const { project, identity, provider } = r;
  assertConvertible(project, guest);
  if (identity.email !== null && (await r.users.findByEmail(project.id, identity.email)))
    throw accountExists();
  const now = r.clock.now();
  const change = {
    email: identity.email ?? `${guest.id.toLowerCase()}@${providerAccountDomain}`,
    passwordHash: noPasswordHash,
    role: memberRole,
    displayName: identity.displayName,
    emailVerifiedAt: identity.email !== null && identity.emailVerified ? now : null,
  };
  const by = userActor(guest.id, toClientInfo(r.client));
  const events = [
    toUserEvent('user.identity_linked', by, guest, now, { provider }),
    toConvertedEvent(guest, by, now, { method: 'oauth', provider }),
  ];
  const member = await r.identities.convertUser({
    projectId: project.id,
    userId: guest.id,
    change,
    identity: toLinked(r, guest.id),
    now,
    events,
  });
  // A concurrent conversion won: this session is no guest's any more.
  if (!member) throw accessDenied('Only an anonymous account can be converted');
  await r.sessions.accountConverted(member);
  return member;
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
