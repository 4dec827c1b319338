import { invalidLogin, reauthenticationRequired } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import type { RefreshTokenRepository } from './refresh-token-repository.ts';
import type { Authenticated, ClientContext } from './session-types.ts';
import type { User } from './user-repository.ts';

/** How recent a sign-in vouches for its user without a password (issue 41: "a sign-in within 5 minutes"). */
export const recentSignInMs = 5 * 60 * 1000;

/** What a signed-in user offers before a step that could lock them out or lose their data. */
export type IdentityProof = { password?: string; code?: string; recoveryCode?: string };

/**
 * The user's second factor (issue 41, TOTP): checks a code or a recovery code and spends it (a
 * code is good once); throws INVALID_LOGIN when it is wrong or the user has no factor.
 */
export interface SecondFactorCheck {
  confirm(user: User, proof: { code?: string; recoveryCode?: string }, client: ClientContext): Promise<void>;
}

export type ReauthenticationOptions = {
  loginThrottle: LoginThrottle;
  refreshTokens: Pick<RefreshTokenRepository, 'findFamilyCreatedAt'>;
  clock: Clock;
  secondFactor?: SecondFactorCheck;
};

/**
 * Confirms that the holder of a session is its user before enrolling a factor, deleting the
 * account or the like: by the password, a code of the second factor, or a sign-in of this
 * session within the last 5 minutes. A wrong password or code counts against the account
 * exactly as a failed login does (login-throttle.ts): a stolen access token guesses no faster
 * than the login form. Without any proof: 403 REAUTHENTICATION_REQUIRED.
 */
export class Reauthentication {
  readonly #o: ReauthenticationOptions;

  constructor(options: ReauthenticationOptions) {
    this.#o = options;
  }

  async confirm(caller: Authenticated, proof: IdentityProof, client: ClientContext): Promise<void> {
    const { user } = caller;
    const attempt = { projectId: user.projectId, email: user.email, clientAddress: client.clientAddress };
    if (proof.password !== undefined) {
      await this.#o.loginThrottle.guard(attempt, async () => {
        if (!(await verifyPassword(proof.password!, user.passwordHash)))
          throw invalidLogin('password is wrong');
      });
      return;
    }
    if (proof.code !== undefined || proof.recoveryCode !== undefined) {
      const factor = this.#o.secondFactor;
      if (!factor) throw invalidLogin('The account has no second factor');
      await this.#o.loginThrottle.guard(attempt, () => factor.confirm(user, proof, client));
      return;
    }
    if (!(await this.signedInRecently(caller))) throw reauthenticationRequired();
  }

  /** Whether the caller's session began (a sign-in, not a refresh) within the last 5 minutes. */
  async signedInRecently(caller: Authenticated): Promise<boolean> {
    const now = this.#o.clock.now().getTime();
    // An enrolment token is issued right after the password was checked (requireMfa, issue 41).
    if (caller.enrolmentIssuedAt !== undefined) return now - caller.enrolmentIssuedAt <= recentSignInMs;
    if (caller.sessionId === undefined) return false;
    const startedAt = await this.#o.refreshTokens.findFamilyCreatedAt(caller.sessionId);
    return startedAt !== undefined && now - startedAt <= recentSignInMs;
  }
}
