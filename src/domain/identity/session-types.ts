import type { ClientInfo, Principal } from '../access/decide-file-access.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import type { IssuedToken } from './token-service.ts';
import type { User } from './user-repository.ts';

/** Where a request came from: limits count by the address, events record both. */
export type ClientContext = { clientAddress: string; userAgent?: string | null };

/**
 * How a session began, as `user.login` records it (issue 37, item 6): `password` (a login, a
 * signup, a guest's conversion), `anonymous` (a guest's signup), `magic-link`, `oauth` with its
 * `provider`, `token` (a trusted issuer's), `passkey` (issue 41).
 */
export type SignInMethod =
  | { method: 'password' | 'anonymous' | 'magic-link' | 'passkey' }
  | { method: 'oauth' | 'token'; provider: string };

/** How a session began, as its list shows it: the method, and `oauth:<provider>` for a provider's. */
export function toMethodName(how: SignInMethod): string {
  return 'provider' in how ? `${how.method}:${how.provider}` : how.method;
}

export type Session = IssuedToken & { user: User; refreshToken: string };

/** A bearer token's caller: who, the session (refresh-token family) its token came with; `expiresAt`: the token's `exp` (Unix seconds). */
export type Authenticated = {
  principal: Principal;
  user: User;
  sessionId?: string;
  expiresAt?: number;
  /** An enrolment token's caller (issue 41): when the token was issued, right after a password (Unix ms). */
  enrolmentIssuedAt?: number;
};

/** What an event records of the caller (the user agent bounded). */
export function toClientInfo(client: ClientContext): ClientInfo {
  return { ip: client.clientAddress, userAgent: client.userAgent?.slice(0, 256) ?? null };
}

/** user.logout, for a session ended by its refresh token or its access token. */
export function toLogoutEvent(
  user: { userId?: string; id?: string; projectId: string },
  client: ClientInfo | undefined,
  at: Date,
) {
  const id = user.id ?? user.userId ?? null;
  return toUserEvent('user.logout', userActor(id, client), { id, projectId: user.projectId }, at);
}
