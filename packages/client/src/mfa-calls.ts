import type { LoginResult } from './api-shapes.ts';
import type { Session } from './client-options.ts';
import type { SessionTransport } from './session-transport.ts';

/** A code of the authenticator app, or one of the recovery codes. */
export type SecondFactorProof = { code: string } | { recoveryCode: string };

/** What enrolling an authenticator app shows the user, once. */
export type TotpEnrolment = { secret: string; otpauthUrl: string; qrSvg: string };

/**
 * Second factors (`client.mfa`, issue 41). A login of a user with one throws a CofferError
 * MFA_REQUIRED whose `mfaToken` `complete` takes with a code; where the project requires a
 * factor, MFA_ENROLMENT_REQUIRED carries an `enrolmentToken` that `startTotp` and `confirmTotp`
 * take instead of a session (then log in again).
 */
export class MfaCalls {
  readonly #transport: SessionTransport;

  constructor(transport: SessionTransport) {
    this.#transport = transport;
  }

  /** The second step of a sign-in: the client is then logged in, as after login(). */
  async complete(mfaToken: string, proof: SecondFactorProof): Promise<Session> {
    const result = await this.#transport.call<LoginResult>({
      method: 'POST',
      path: '/api/v1/auth/mfa',
      body: { mfaToken, ...proof },
    });
    return this.#transport.startSession(result);
  }

  /**
   * Starts enrolling an authenticator app: show `qrSvg` (or `secret`), then `confirmTotp` with
   * its first code. The password is needed unless the session signed in within 5 minutes.
   */
  startTotp(options: { password?: string; enrolmentToken?: string } = {}): Promise<TotpEnrolment> {
    const { password, enrolmentToken } = options;
    return this.#transport.call<TotpEnrolment>({
      method: 'POST',
      path: '/api/v1/user/mfa/totp',
      body: password === undefined ? {} : { password },
      ...this.#caller(enrolmentToken),
    });
  }

  /** Turns the factor on with a first code; answers ten recovery codes to keep (shown only now). */
  async confirmTotp(code: string, options: { enrolmentToken?: string } = {}): Promise<string[]> {
    const answer = await this.#transport.call<{ recoveryCodes: string[] }>({
      method: 'POST',
      path: '/api/v1/user/mfa/totp/confirm',
      body: { code },
      ...this.#caller(options.enrolmentToken),
    });
    return answer.recoveryCodes;
  }

  /** Turns the factor off, with a code of the app or a recovery code. */
  async removeTotp(proof: SecondFactorProof): Promise<void> {
    await this.#transport.call({ method: 'DELETE', path: '/api/v1/user/mfa/totp', body: proof, auth: true });
  }

  #caller(enrolmentToken: string | undefined) {
    return enrolmentToken === undefined ? { auth: true } : { bearer: enrolmentToken };
  }
}
