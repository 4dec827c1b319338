// The passkey tables of database-schema.ts (issue 41; migrations/passkeys.ts).

/** One WebAuthn credential of a user. */
export type PasskeysTable = {
  id: string;
  project_id: string;
  user_id: string;
  /** base64url, as the authenticator names it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number | string;
  /** base64url of the random user handle (never an email). */
  user_handle: string;
  /** JSON array of transports. */
  transports: string;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: number | string;
  last_used_at: number | string | null;
};

/** A challenge handed out and not yet used, by its SHA-256 (hex). */
export type PasskeyChallengesTable = {
  challenge_hash: string;
  project_id: string;
  purpose: string;
  user_id: string | null;
  user_handle: string | null;
  expires_at: number | string;
};

/** The passkey tables, spread into DatabaseSchema. */
export type PasskeyTables = {
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
};
