import type { Session } from './client-options.ts';

/** One API call as the client sends it (index.ts #call): app credentials always, a token when `auth`. */
export type SendCall = <T>(call: {
  method: string;
  path: string;
  body?: unknown;
  auth?: boolean;
}) => Promise<T>;

type LoginAnswer = Session;

/** What these calls need of the client's session (session-transport.ts). */
type AccountSession = {
  call: SendCall;
  session: Session | undefined;
  startSession(result: LoginAnswer): Session;
  setSession(session: undefined): void;
};

/**
 * What proves the signed-in user is themselves before a risky step: the password, a code of
 * their second factor, or a recovery code; nothing when they signed in within 5 minutes.
 */
export type IdentityProof = { password?: string; code?: string; recoveryCode?: string };

/**
 * Accounts by email (`client.account`): password reset, email verification and sign-in by
 * link. The requests answer the same whether or not an address has an account; the mails link
 * to the app's page (the project's `accountLinkUrl`) with the token after `#token=`, which
 * `tokenFromLink` reads. Only the confirm calls spend a token. Also the signed-in user's own
 * account: a new address, and leaving.
 */
export class AccountCalls {
  readonly #send: SendCall;
  readonly #transport: AccountSession;

  constructor(transport: AccountSession) {
    this.#send = transport.call;
    this.#transport = transport;
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
    return this.#transport.startSession(result);
  }

  /**
   * Mails the new address a link that makes the change (the same answer if another account has
   * it: that one gets no mail). Needs the password (or a second-factor code), unless the
   * session signed in within 5 minutes.
   */
  async requestEmailChange(newEmail: string, proof: IdentityProof = {}): Promise<void> {
    await this.#send({
      method: 'POST',
      path: '/api/v1/user/email',
      body: { newEmail, ...proof },
      auth: true,
    });
  }

  /**
   * Spends the new address's token: the account has it from now on. Signed in as that account,
   * this session goes on and every other one ends; not signed in, they all end.
   */
  async confirmEmailChange(token: string): Promise<void> {
    const auth = this.#transport.session !== undefined;
    await this.#send({ method: 'POST', path: '/api/v1/user/email/confirm', body: { token }, auth });
  }

  /** Spends the old address's token (7 days): the old address is back and every session ends. */
  async revertEmailChange(token: string): Promise<void> {
    await this.#send({ method: 'POST', path: '/api/v1/user/email/revert', body: { token } });
    this.#transport.setSession(undefined);
  }

  /**
   * Deletes the signed-in user's account with its files, shares and sessions (where the
   * project allows it): the password or a second-factor code, or nothing within 5 minutes of
   * signing in. The client is logged out.
   */
  async deleteAccount(proof: IdentityProof = {}): Promise<void> {
    await this.#send({ method: 'DELETE', path: '/api/v1/user', body: proof, auth: true });
    this.#transport.setSession(undefined);
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
