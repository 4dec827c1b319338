import type { Session } from './client-options.ts';

/** One API call as the client sends it (index.ts #call): app credentials always, a token when `auth`. */
export type SendCall = <T>(call: {
  method: string;
  path: string;
  body?: unknown;
  auth?: boolean;
}) => Promise<T>;

type LoginAnswer = Session;

/**
 * Accounts by email (`client.account`): password reset, email verification and sign-in by
 * link. The requests answer the same whether or not an address has an account; the mails link
 * to the app's page (the project's `accountLinkUrl`) with the token after `#token=`, which
 * `tokenFromLink` reads. Only the confirm calls spend a token.
 */
export class AccountCalls {
  readonly #send: SendCall;
  readonly #startSession: (result: LoginAnswer) => Session;

  constructor(send: SendCall, startSession: (result: LoginAnswer) => Session) {
    this.#send = send;
    this.#startSession = startSession;
  }

  /** Mails a link to choose a new password (if the address has an account). */
  async requestPasswordReset(email: string): Promise<void> {
    await this.#send({ method: 'POST', path: '/api/v1/auth/password-reset', body: { email } });
  }

  /** Sets the new password; every session of the account ends (log in again). */
  async confirmPasswordReset(token: string, newPassword: string): Promise<void> {
    await this.#send({
      method: 'POST',
      path: '/api/v1/auth/password-reset/confirm',
      body: { token, newPassword },
    });
  }

  /** Mails a verification link: to the logged-in user's address, or to `email` when not logged in. */
  async requestEmailVerification(email?: string): Promise<void> {
    const path = '/api/v1/auth/verify-email';
    if (email === undefined) await this.#send({ method: 'POST', path, auth: true });
    else await this.#send({ method: 'POST', path, body: { email } });
  }

  async confirmEmailVerification(token: string): Promise<void> {
    await this.#send({ method: 'POST', path: '/api/v1/auth/verify-email/confirm', body: { token } });
  }

  /** Mails a sign-in link (where the project turned it on). */
  async requestMagicLink(email: string): Promise<void> {
    await this.#send({ method: 'POST', path: '/api/v1/auth/magic-link', body: { email } });
  }

  /** Spends a sign-in link's token: the client is then logged in, as after login(). */
  async signInWithMagicLink(token: string): Promise<Session> {
    const result = await this.#send<LoginAnswer>({
      method: 'POST',
      path: '/api/v1/auth/magic-link/confirm',
      body: { token },
    });
    return this.#startSession(result);
  }
}

/**
 * The token of a mail's link, from the page's URL or its fragment (`location.hash`); undefined
 * when there is none. Reading it changes nothing: call a confirm method when the user acts.
 */
export function tokenFromLink(urlOrHash: string): string | undefined {
  const hash = urlOrHash.includes('#') ? urlOrHash.slice(urlOrHash.indexOf('#') + 1) : urlOrHash;
  return new URLSearchParams(hash).get('token') ?? undefined;
}
