import type { LoginResult } from './api-shapes.ts';
import type { Session } from './client-options.ts';
import type { SessionTransport } from './session-transport.ts';

/** POST /api/v1/auth/signup: a new account and its first session. */
export async function signup(
  transport: SessionTransport,
  input: { email: string; password: string; displayName?: string },
): Promise<Session> {
  return transport.startSession(
    await transport.call<LoginResult>({ method: 'POST', path: '/api/v1/auth/signup', body: input }),
  );
}

/** POST /api/v1/auth/login: a session (or a CofferError MFA_REQUIRED with its mfaToken). */
export async function login(
  transport: SessionTransport,
  input: { email: string; password: string },
): Promise<Session> {
  return transport.startSession(
    await transport.call<LoginResult>({ method: 'POST', path: '/api/v1/auth/login', body: input }),
  );
}

/** Forgets the session here, then ends it on the server (its refresh token stops working). */
export async function logout(transport: SessionTransport): Promise<void> {
  const session = transport.session;
  transport.setSession(undefined);
  if (session)
    await transport.call({
      method: 'POST',
      path: '/api/v1/auth/logout',
      body: { refreshToken: session.refreshToken },
    });
}

/** POST /api/v1/auth/password: every other session of the user ends; this one goes on. */
export async function changePassword(
  transport: SessionTransport,
  input: { oldPassword: string; newPassword: string },
): Promise<void> {
  await transport.call({ method: 'POST', path: '/api/v1/auth/password', body: input, auth: true });
}
