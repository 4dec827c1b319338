import type { NewEvent } from '../events/event.ts';
export type User = {
  id: string;
  projectId: string;
  email: string;
  passwordHash: string;
  role: string;
  displayName: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** When the address was shown to be the user's (verification, reset, magic link); null: never. */
  emailVerifiedAt: Date | null;
};

export type NewUser = Omit<User, 'createdAt' | 'updatedAt' | 'version' | 'emailVerifiedAt'>;

/** What an anonymous account becomes (accounts.ts, convert-anonymous-account.ts). */
export type AnonymousConversion = {
  email: string;
  /** argon2id; `noPasswordHash` for a conversion by a provider's sign-in. */
  passwordHash: string;
  role: string;
  displayName: string;
  emailVerifiedAt: Date | null;
};

export interface UserRepository {
  /** Throws EMAIL_TAKEN when the project already has this email (case-insensitive). */
  create(user: NewUser, event?: NewEvent): Promise<User>;
  findById(projectId: string, id: string): Promise<User | undefined>;
  findByEmail(projectId: string, email: string): Promise<User | undefined>;
  /** Returns the updated user, or undefined when there is no such user. */
  setRole(projectId: string, id: string, role: string, event?: NewEvent): Promise<User | undefined>;
  setEnabled(projectId: string, id: string, enabled: boolean, event?: NewEvent): Promise<User | undefined>;
  setPasswordHash(
    projectId: string,
    id: string,
    passwordHash: string,
    event?: NewEvent,
  ): Promise<User | undefined>;
  /**
   * In one transaction: the account, while it still has role `anonymous`, takes the new email,
   * password, role and name; every session of it ends (its refresh-token families go); the
   * event is written. Undefined when there is no such anonymous account; EMAIL_TAKEN when
   * another account has the address.
   */
  convertAnonymous(
    projectId: string,
    id: string,
    change: AnonymousConversion,
    event: NewEvent,
  ): Promise<User | undefined>;
  /**
   * One page of the project's users in email order (case-insensitive), `limit` at most, after
   * the cursor of the page before; `next` is absent on the last page.
   */
  list(projectId: string, page: { after?: string; limit: number }): Promise<{ users: User[]; next?: string }>;
  /** Removes the user row only (coffer user delete removes what it owns first); answers whether it existed. */
  delete(projectId: string, id: string, event?: NewEvent): Promise<boolean>;
}
