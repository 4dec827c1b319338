import type { NewEvent } from '../events/event.ts';
import type { AnonymousConversion, NewUser, User } from '../identity/user-repository.ts';
import type { ProviderIdentity } from './provider-client.ts';

/** A sign-in between its start and the app fetching its token (issue 37). */
export type OAuthFlow = {
  /** Coffer's own state, sent to the provider. */
  id: string;
  projectId: string;
  provider: string;
  /** The state the app's SDK chose: it fetches the token with it. */
  clientState: string;
  codeVerifier: string;
  nonce: string;
  redirectTo: string | null;
  /** The client address that started it: the token goes to that address only. */
  clientAddress: string;
  expiresAt: Date;
  /** Set once by the callback. */
  identity: ProviderIdentity | null;
};

export interface OAuthFlowRepository {
  /** False when the app already started a flow with this client state (refused: states are single-use). */
  create(flow: OAuthFlow, now: Date): Promise<boolean>;
  /** The flow the provider's callback names, if it has not expired and has no identity yet. */
  findOpen(id: string, now: Date): Promise<OAuthFlow | undefined>;
  /** Records the identity once (a replayed callback finds it set: false); the flow then lives until `expiresAt`. */
  complete(id: string, identity: ProviderIdentity, expiresAt: Date): Promise<boolean>;
  /**
   * Takes the completed flow of this client state, started from `clientAddress`, once: a second
   * call (or one from another address) finds nothing.
   */
  take(
    key: { projectId: string; provider: string; clientState: string; clientAddress: string },
    now: Date,
  ): Promise<OAuthFlow | undefined>;
  /** Some flows past their expiry go (each start clears a few: abandoned sign-ins do not pile up). */
  deleteExpired(now: Date): Promise<number>;
}

/** A user's identity at a provider, as the profile's `providers` shows it. */
export type LinkedIdentity = {
  provider: string;
  subject: string;
  userId: string;
  displayName: string;
  email: string | null;
};

export interface UserIdentityRepository {
  findUserId(projectId: string, provider: string, subject: string): Promise<string | undefined>;
  listByUser(projectId: string, userId: string): Promise<LinkedIdentity[]>;
  /** Links the identity to the user; false when another user holds it (one identity, one user). */
  link(projectId: string, identity: LinkedIdentity, now: Date, event?: NewEvent): Promise<boolean>;
  /**
   * A new user and its identity in one transaction (a first provider sign-in), with its events;
   * EMAIL_TAKEN or IDENTITY_IN_USE when a concurrent sign-in won.
   */
  createUser(
    user: NewUser,
    emailVerifiedAt: Date | null,
    identity: LinkedIdentity,
    now: Date,
    events: NewEvent[],
  ): Promise<User>;
  /**
   * A guest's conversion by a provider (identity-resolution.ts), in one transaction: the account,
   * while still anonymous, changes as UserRepository.convertAnonymous does (its sessions end),
   * the identity is linked, the events written. Undefined when the account is no guest;
   * ACCOUNT_EXISTS when another account has the address, IDENTITY_IN_USE when another user
   * took the identity meanwhile.
   */
  convertUser(conversion: {
    projectId: string;
    userId: string;
    change: AnonymousConversion;
    identity: LinkedIdentity;
    now: Date;
    events: NewEvent[];
  }): Promise<User | undefined>;
  /** Removes the user's identity at the provider; false when there was none. */
  unlink(projectId: string, userId: string, provider: string, event?: NewEvent): Promise<boolean>;
}
