import { Type } from '@sinclair/typebox';
import type { SessionView } from '../../../domain/identity/user-sessions.ts';

/** One of a user's sessions (a refresh-token family): where and how it began, when last used. */
export const SessionSchema = Type.Object(
  {
    id: Type.String({ description: "the session's id (the access token's `sid` claim)" }),
    createdAt: Type.String({ format: 'date-time', description: 'when it began (its sign-in)' }),
    lastUsedAt: Type.String({
      format: 'date-time',
      description: 'its sign-in or its latest refresh (not each call with its access token)',
    }),
    ip: Type.Union([Type.String(), Type.Null()], { description: 'the address it began from' }),
    userAgent: Type.Union([Type.String(), Type.Null()], {
      description: 'the User-Agent it began with (at most 256 characters)',
    }),
    method: Type.Union([Type.String(), Type.Null()], {
      description:
        'how it began: password, magic-link, oauth:<provider>, anonymous, passkey, token:<issuer>…',
    }),
    current: Type.Boolean({ description: "the caller's own session" }),
  },
  { $id: 'UserSession', title: 'UserSession' },
);

export const SessionIdParams = Type.Object({ sessionId: Type.String({ maxLength: 64 }) });

export function toSessionView(session: SessionView) {
  return {
    id: session.id,
    createdAt: session.createdAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
    ip: session.ip,
    userAgent: session.userAgent,
    method: session.method,
    current: session.current,
  };
}
