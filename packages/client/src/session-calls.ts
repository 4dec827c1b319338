import type { Call, UserSession } from './api-shapes.ts';

/** How the client sends a call (its transport: headers, token refresh, errors). */
type Send = <T>(call: Call) => Promise<T>;

/**
 * Where the signed-in user is signed in (`client.sessions`, issue 41): each session is a
 * sign-in that has not ended; ending one signs that device out at once (its refresh and access
 * tokens are refused on every server), as its own logout would.
 */
export class SessionCalls {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /** The live sessions, newest first (at most 100): address, user agent, method; `current`: this client's. */
  list(): Promise<UserSession[]> {
    return this.#send({ method: 'GET', path: '/api/v1/user/sessions', auth: true });
  }

  /** Ends one session (404 SESSION_NOT_FOUND for an id that is no live session of the user). */
  async end(sessionId: string): Promise<void> {
    await this.#send({
      method: 'DELETE',
      path: `/api/v1/user/sessions/${encodeURIComponent(sessionId)}`,
      auth: true,
    });
  }

  /** Ends every session but this client's: "sign out everywhere else". */
  async endOthers(): Promise<void> {
    await this.#send({ method: 'DELETE', path: '/api/v1/user/sessions', auth: true });
  }
}
