import type { Session } from '../../../domain/identity/identity-service.ts';

/** Spec 2.3, plus when the token expires and the refresh token. */
export function toLoginResult(session: Session) {
  return {
    token: session.token,
    userId: session.user.id,
    expires: new Date(session.expiresAt * 1000).toISOString(),
    expiresAt: session.expiresAt,
    refreshToken: session.refreshToken,
  };
}
