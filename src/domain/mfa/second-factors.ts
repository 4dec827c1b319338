import { isAppError } from '../../errors/app-error.ts';
import { accountDisabled, invalidLogin } from '../../errors/errors.ts';
import {
  invalidMfaToken,
  mfaEnrolmentRequired,
  mfaRequired,
  noPendingFactor,
} from '../../errors/mfa-errors.ts';
import type { Clock } from '../clock.ts';
import type { Actor } from '../events/event.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import type { LoginThrottle } from '../identity/login-throttle.ts';
import type { Project } from '../identity/project-repository.ts';
import type { IdentityProof, SecondFactorCheck } from '../identity/reauthentication.ts';
import { type ClientContext, type SignInMethod, toClientInfo } from '../identity/session-types.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import type { PasskeyRepository } from '../passkeys/passkey-repository.ts';
import type { MfaRepository } from './mfa-repository.ts';
import { resetFactors } from './reset-factors.ts';
import { secondFactorMethodsOf } from './second-factor-methods.ts';
import type { SecretBox } from './secret-box.ts';
import {
  findRecoveryCodeHash,
  findTotpStep,
  hashMfaToken,
  hashRecoveryCode,
  newMfaToken,
  newRecoveryCodes,
  newTotpSecret,
  toOtpauthUrl,
} from './totp-codes.ts';

/** How long the second step of a sign-in may wait (issue 41: 5 minutes). */
export const mfaTokenTtlMs = 5 * 60 * 1000;
/** An enrolment token: time to scan a QR code and type the first code. */
export const enrolmentTokenTtlMs = 15 * 60 * 1000;
/** Wrong codes that end an mfaToken (issue 41). */
export const maxMfaTokenFailures = 5;
/** Where enrolment tokens begin: the authenticate barrier tells them from access tokens. */
export const enrolmentTokenPrefix = 'cfe_';

export type SecondFactorsOptions = {
  mfa: MfaRepository;
  users: Pick<UserRepository, 'findById'>;
  box: SecretBox;
  clock: Clock;
  loginThrottle: LoginThrottle;
  /** The user's passkeys: a way through the second step (a passkey sign-in) where one is needed. */
  passkeys?: Pick<PasskeyRepository, 'listByUser'>;
};

/** Sign-ins that stop for the second factor; a passkey is two factors, a guest has none. */
const gatedMethods = new Set(['password', 'magic-link', 'oauth']);

/**
 * TOTP (RFC 6238) as a second factor (issue 41): enrolment and its confirmation, removal, the
 * second step of a sign-in, and the SecondFactorCheck of reauthentication.
 */
export class SecondFactors implements SecondFactorCheck {
  readonly #o: SecondFactorsOptions;

  constructor(options: SecondFactorsOptions) {
    this.#o = options;
  }

  /** POST /user/mfa/totp: a new pending secret (replacing a pending one); shown this once. */
  async startTotp(user: User, project: Project): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = newTotpSecret();
    await this.#o.mfa.savePendingTotp(keyOf(user), await this.#o.box.seal(secret), this.#o.clock.now());
    return { secret, otpauthUrl: toOtpauthUrl({ issuer: project.name, account: user.email, secret }) };
  }

  /** POST /user/mfa/totp/confirm: the pending secret becomes the factor; ten new recovery codes. */
  async confirmTotp(user: User, code: string, client: ClientContext): Promise<string[]> {
    const factor = await this.#o.mfa.findTotp(keyOf(user));
    if (!factor?.pendingSecret) throw noPendingFactor();
    const { plain } = await this.#o.box.open(factor.pendingSecret);
    const step = await this.#o.loginThrottle.guard(attemptOf(user, client), async () => {
      const found = findTotpStep(plain, code, this.#o.clock.now());
      if (found === undefined) throw invalidLogin('The code is wrong');
      return found;
    });
    const recoveryCodes = newRecoveryCodes();
    const event = toUserEvent('user.mfa_enabled', actorOf(user, client), user, this.#o.clock.now(), {
      method: 'totp',
    });
    const change = { sealed: factor.pendingSecret, step, codeHashes: recoveryCodes.map(hashRecoveryCode) };
    if (!(await this.#o.mfa.confirmTotp(keyOf(user), change, event))) throw noPendingFactor();
    return recoveryCodes;
  }

  /** DELETE /user/mfa/totp, after a code or recovery code (checked and counted by the caller). */
  async removeTotp(user: User, by: Actor): Promise<boolean> {
    return resetFactors(this.#o.mfa, user, by, this.#o.clock.now());
  }

  /** Whether the user has a confirmed factor (the console's user view). */
  async hasTotp(user: { projectId: string; id: string }): Promise<boolean> {
    return (await this.#o.mfa.findTotp(keyOf(user)))?.secret !== undefined;
  }

  /**
   * SecondFactorCheck: a code of the factor (its step taken, so it is good once) or an unspent
   * recovery code (spent). INVALID_LOGIN otherwise; the caller counts it (login-throttle.ts).
   */
  async confirm(user: User, proof: Omit<IdentityProof, 'password'>): Promise<void> {
    const key = keyOf(user);
    if (proof.code !== undefined) {
      const factor = await this.#o.mfa.findTotp(key);
      if (!factor?.secret) throw invalidLogin('The account has no second factor');
      const { plain, stale } = await this.#o.box.open(factor.secret);
      const step = findTotpStep(plain, proof.code, this.#o.clock.now());
      // RFC 6238 §5.2: "the verifier MUST NOT accept the second attempt of the same OTP".
      const resealed = stale ? await this.#o.box.seal(plain) : undefined;
      if (step === undefined || !(await this.#o.mfa.acceptStep(key, step, resealed)))
        throw invalidLogin('The code is wrong or was used already');
      return;
    }
    if (proof.recoveryCode !== undefined) {
      const hash = findRecoveryCodeHash(await this.#o.mfa.listRecoveryCodeHashes(key), proof.recoveryCode);
      if (!hash || !(await this.#o.mfa.spendRecoveryCode(key, hash, this.#o.clock.now())))
        throw invalidLogin('The recovery code is wrong or was used already');
      return;
    }
    throw invalidLogin('Send a code or a recovery code');
  }

  /**
   * The gate every sign-in passes before its session starts (identity-service.ts signIn): a
   * user with a factor gets 401 MFA_REQUIRED and an mfaToken; where the project requires a
   * factor, a user without one gets 403 MFA_ENROLMENT_REQUIRED and an enrolment token.
   */
  async assertSignInComplete(user: User, project: Project, how: SignInMethod): Promise<void> {
    if (!gatedMethods.has(how.method)) return;
    const methods = await secondFactorMethodsOf(user, this.#o, project.settings.requireMfa);
    if (methods.length > 0)
      throw mfaRequired(await this.#issueToken(user, 'mfa', how, mfaTokenTtlMs), methods);
    if (project.settings.requireMfa)
      throw mfaEnrolmentRequired(await this.#issueToken(user, 'enrolment', how, enrolmentTokenTtlMs));
  }

  /**
   * POST /auth/mfa: the second step. A wrong code counts against the account as a failed
   * login does and against the token: the fifth ends it. A right one spends the token.
   */
  async passSecondStep(
    project: Project,
    input: { mfaToken: string } & Omit<IdentityProof, 'password'>,
    client: ClientContext,
  ): Promise<{ user: User; signIn: SignInMethod }> {
    const tokenHash = hashMfaToken(input.mfaToken);
    const found = await this.#o.mfa.findToken(tokenHash);
    const now = this.#o.clock.now().getTime();
    if (found?.purpose !== 'mfa' || found.projectId !== project.id || found.expiresAt <= now)
      throw invalidMfaToken();
    const user = await this.#o.users.findById(project.id, found.userId);
    if (!user) throw invalidMfaToken();
    try {
      await this.#o.loginThrottle.guard(attemptOf(user, client), () => this.confirm(user, input));
    } catch (error) {
      if (isAppError(error) && error.code === 'INVALID_LOGIN') {
        const failures = await this.#o.mfa.countFailure(tokenHash);
        if (failures >= maxMfaTokenFailures) await this.#o.mfa.deleteToken(tokenHash);
      }
      throw error;
    }
    if (!(await this.#o.mfa.deleteToken(tokenHash))) throw invalidMfaToken();
    if (!user.enabled) throw accountDisabled();
    return { user, signIn: found.signIn };
  }

  /** The user an enrolment token names while it lasts, and when it was issued (Unix ms). */
  async authenticateEnrolment(
    project: Project,
    token: string,
  ): Promise<{ user: User; issuedAt: number } | undefined> {
    const found = await this.#o.mfa.findToken(hashMfaToken(token));
    const now = this.#o.clock.now().getTime();
    if (found?.purpose !== 'enrolment' || found.projectId !== project.id || found.expiresAt <= now)
      return undefined;
    const user = await this.#o.users.findById(project.id, found.userId);
    return user?.enabled ? { user, issuedAt: found.createdAt } : undefined;
  }

  async #issueToken(user: User, purpose: 'mfa' | 'enrolment', signIn: SignInMethod, ttlMs: number) {
    const { token, tokenHash } = newMfaToken(purpose === 'enrolment' ? enrolmentTokenPrefix : 'cfm_');
    const createdAt = this.#o.clock.now().getTime();
    const record = { ...keyOf(user), purpose, signIn, failures: 0, createdAt, expiresAt: createdAt + ttlMs };
    await this.#o.mfa.createToken(tokenHash, record);
    return token;
  }
}

function keyOf(user: { projectId: string; id: string }) {
  return { projectId: user.projectId, userId: user.id };
}

function attemptOf(user: User, client: ClientContext) {
  return { projectId: user.projectId, email: user.email, clientAddress: client.clientAddress };
}

function actorOf(user: User, client: ClientContext): Actor {
  return userActor(user.id, toClientInfo(client));
}
