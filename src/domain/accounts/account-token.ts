import { createHash, randomBytes } from 'node:crypto';
import type { NewEvent } from '../events/event.ts';
import type { User } from '../identity/user-repository.ts';
import type { NewMail } from '../mail/mail.ts';

/** What an account mail's token lets its holder do, once. */
export type AccountTokenPurpose =
  | 'password-reset'
  | 'verify-email'
  | 'magic-link'
  /** Mailed to a new address: switches the account to it (email-change-flows.ts). */
  | 'email-change'
  /** Mailed to the address a change replaced: switches back to it, for 7 days. */
  | 'email-revert';

export type NewAccountToken = {
  tokenHash: string;
  projectId: string;
  userId: string;
  purpose: AccountTokenPurpose;
  /** The address the mail goes to: the token is good only while the account still has it. */
  email: string;
  /** An email change's: the address it changes (the change applies only while the account has it). */
  fromEmail?: string;
  createdAt: Date;
  expiresAt: Date;
};

/** What spending a token does to its account, in the transaction that spends it. */
export type AccountTokenEffect = {
  /** A reset's new password (hashed). */
  passwordHash?: string;
  /** Revoke every session of the user (a reset: whoever else held one is out). */
  endSessions?: boolean;
  event?: NewEvent;
};

export interface AccountTokenRepository {
  /**
   * Stores the token, replacing the live one of its user and purpose, and queues its mail, in one
   * transaction: a mail never carries a token that was not stored, nor a stored one go unmailed.
   */
  issue(token: NewAccountToken, mail: NewMail): Promise<void>;
  /**
   * Spends a token: takes it (one statement, so of two requests one wins), checks it is alive
   * and its account still has the address, marks the address verified and applies the effect,
   * all in one transaction. Answers the updated account, or undefined (unknown, spent, expired,
   * of another purpose or project, or the address changed). `effect` sees the account as it
   * was and may throw, which undoes everything (the token stays unspent). An undefined
   * projectId takes the token's own project (Coffer's pages, which name none).
   */
  redeem(
    token: { tokenHash: string; projectId: string | undefined; purpose: AccountTokenPurpose },
    now: Date,
    effect: (user: User) => AccountTokenEffect,
  ): Promise<User | undefined>;
}

/** 256 random bits, base64url: nothing to guess, so a fast hash at rest is enough. */
export function mintAccountToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashAccountToken(token) };
}

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
