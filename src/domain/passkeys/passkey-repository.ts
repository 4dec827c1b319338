import type { NewEvent } from '../events/event.ts';

/** A WebAuthn credential a user registered (issue 41). */
export type Passkey = {
  /** Coffer's own id (the API's), not the credential's. */
  id: string;
  projectId: string;
  userId: string;
  /** base64url, as the authenticator names it. */
  credentialId: string;
  /** The COSE public key. */
  publicKey: Uint8Array;
  counter: number;
  /** base64url of the user handle the authenticator keeps: random bytes per user, never an email. */
  userHandle: string;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type PasskeyChallengePurpose = 'registration' | 'authentication';

/** A challenge handed out: what it was for, and for whom. */
export type PasskeyChallenge = {
  /** SHA-256 (hex) of the challenge as the client data carries it (base64url). */
  challengeHash: string;
  projectId: string;
  purpose: PasskeyChallengePurpose;
  /** Registration: the user registering; sign-in with an email: its account, if any. */
  userId: string | null;
  /** Registration: the user handle the new credential gets. */
  userHandle: string | null;
  expiresAt: Date;
};

export interface PasskeyRepository {
  listByUser(projectId: string, userId: string): Promise<Passkey[]>;
  findByCredentialId(projectId: string, credentialId: string): Promise<Passkey | undefined>;
  /** False when the credential is registered already (in this project). */
  create(passkey: Passkey, event: NewEvent): Promise<boolean>;
  /** After a sign-in: the counter the authenticator reported, and when. */
  recordUse(id: string, counter: number, at: Date): Promise<void>;
  /** False when the user has no such passkey. */
  delete(projectId: string, userId: string, id: string, event: NewEvent): Promise<boolean>;
  saveChallenge(challenge: PasskeyChallenge): Promise<void>;
  /** The challenge, once: a second call (a replay) finds nothing; an expired one is not answered. */
  takeChallenge(
    key: { projectId: string; purpose: PasskeyChallengePurpose; challengeHash: string },
    now: Date,
  ): Promise<PasskeyChallenge | undefined>;
  /** Some challenges past their expiry go (each new one clears a few). */
  deleteExpiredChallenges(now: Date): Promise<number>;
}
