import type { NewEvent } from '../events/event.ts';
import type { User } from '../identity/user-repository.ts';
import type { NewMail } from '../mail/mail.ts';
import type { NewAccountToken } from './account-token.ts';

/** Spending an email change's token (to the new address) or its revert's (to the old one). */
export type EmailSwitch = {
  tokenHash: string;
  /** The project the call named; undefined takes the token's own (Coffer's pages). */
  projectId: string | undefined;
  purpose: 'email-change' | 'email-revert';
  now: Date;
  /** A session that stays (the confirming caller's own); every other one of the account ends. */
  keepSessionId?: string | undefined;
};

/** What the switch writes with it, made from the account as it was and the address it gets. */
export type EmailSwitchEffect = {
  event: NewEvent;
  /**
   * A change's way back: its token and the mail that carries it, stored unless a revert of an
   * earlier change is still live (that one, to the address before both, stays the way back).
   */
  revert?: { token: NewAccountToken; mail: NewMail };
};

export type EmailSwitchResult = { user: User; previousEmail: string; revertIssued: boolean };

export interface EmailChangeRepository {
  /** The project of a live token of this purpose (to word its mails before spending it), if any. */
  findTokenProjectId(tokenHash: string, purpose: EmailSwitch['purpose']): Promise<string | undefined>;
  /**
   * Spends the token in one transaction: takes it (one statement, so of two requests one wins),
   * checks it is alive and, for a change, that the account still has the address it changes;
   * throws EMAIL_TAKEN (nothing spent) when another account has the address it switches to;
   * switches the address (verified), ends the account's sessions but `keepSessionId`, drops
   * the account's pending changes (a revert: a change asked before it must not undo it), stores
   * the effect's revert and event. Undefined for an unknown, spent, expired or stale token.
   */
  switchEmail(
    input: EmailSwitch,
    effect: (user: User, newEmail: string) => EmailSwitchEffect,
  ): Promise<EmailSwitchResult | undefined>;
}
