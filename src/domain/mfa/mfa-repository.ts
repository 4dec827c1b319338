import type { NewEvent } from '../events/event.ts';
import type { SignInMethod } from '../identity/session-types.ts';

/** A user's TOTP factor: the sealed secrets (secret-box.ts), never in clear. */
export type TotpFactor = {
  /** The confirmed secret, sealed; undefined until a first code confirms one. */
  secret?: string;
  /** An enrolment waiting for its first code, sealed. */
  pendingSecret?: string;
  /** The last time step a code was accepted for (a code is good once). */
  lastStep?: number;
};

/** A half-finished sign-in (`mfa`) or an enrolment token (`enrolment`), found by its hash. */
export type MfaToken = {
  projectId: string;
  userId: string;
  purpose: 'mfa' | 'enrolment';
  signIn: SignInMethod;
  failures: number;
  createdAt: number;
  expiresAt: number;
};

type UserKey = { projectId: string; userId: string };

/** Where second factors, recovery codes and MFA tokens are kept (issue 41). */
export interface MfaRepository {
  findTotp(user: UserKey): Promise<TotpFactor | undefined>;
  /** A new pending secret, replacing any pending one (the confirmed one stays). */
  savePendingTotp(user: UserKey, sealed: string, at: Date): Promise<void>;
  /**
   * The pending secret becomes the factor, `step` its last accepted step, the recovery codes
   * are replaced by these, the user's enrolment tokens are spent; with the event, at once.
   * False when the pending secret changed meanwhile (`sealed` is the one the code was checked on).
   */
  confirmTotp(
    user: UserKey,
    change: { sealed: string; step: number; codeHashes: string[] },
    event: NewEvent,
  ): Promise<boolean>;
  /** Sets the last accepted step where it is older; false when `step` was taken already (a replay). */
  acceptStep(user: UserKey, step: number, resealed?: string): Promise<boolean>;
  /** The hashes of the user's unspent recovery codes. */
  listRecoveryCodeHashes(user: UserKey): Promise<string[]>;
  /** Marks one spent; false when another request spent it first. */
  spendRecoveryCode(user: UserKey, codeHash: string, at: Date): Promise<boolean>;
  /** Removes the factor, its recovery codes and MFA tokens, with the event; false when there was none. */
  removeFactors(user: UserKey, event: NewEvent): Promise<boolean>;
  createToken(tokenHash: string, token: MfaToken): Promise<void>;
  findToken(tokenHash: string): Promise<MfaToken | undefined>;
  /** Counts a wrong code; returns the failures now counted. */
  countFailure(tokenHash: string): Promise<number>;
  /** Deletes it; false when it was gone already (spent by a parallel request). */
  deleteToken(tokenHash: string): Promise<boolean>;
}
