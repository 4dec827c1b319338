// The credential and session tables of database-schema.ts: who may call (app credentials,
// service keys, operators), the keys that sign, sessions and their tokens, and the counters
// the limits keep.

export type OperatorsTable = {
  id: string;
  /** Lower case. */
  email: string;
  password_hash: string;
  created_at: number;
};

export type OperatorSessionsTable = {
  /** SHA-256 (hex) of the cookie's token: the token itself is never stored. */
  token_hash: string;
  operator_id: string;
  created_at: number;
  expires_at: number;
};

export type OperatorSignInLinksTable = {
  /** SHA-256 (hex) of the link's token; the row goes when the link is used. */
  token_hash: string;
  operator_id: string;
  expires_at: number;
};

/** Single-use tokens of account mails (migrations/account-tokens.ts; domain/accounts/). */
export type AccountTokensTable = {
  token_hash: string;
  project_id: string;
  user_id: string;
  purpose: string;
  email: string;
  /** An email change's: the address it changes (see email-change-tokens.ts); null otherwise. */
  from_email: string | null;
  created_at: number;
  expires_at: number;
};

export type SigningKeysTable = {
  id: string;
  purpose: string;
  /** base64 */
  secret: string;
  created_at: number;
};

export type RateLimitBucketsTable = {
  /** A hash of what is counted (see domain/rate-limits/token-buckets.ts): no email or address in clear. */
  key: string;
  /** Unix ms at which the bucket is full again; the row is dead from then on. */
  full_at: number;
};

/** One row (id 1): bumped by triggers whenever a project or a user changes (migrations/access-epoch.ts). */
export type AccessEpochTable = {
  id: number;
  value: number;
};

/** One login and every refresh token rotated from it. */
export type RefreshTokenFamiliesTable = {
  id: string;
  project_id: string;
  user_id: string;
  created_at: number;
  /** Unix ms: the expiry of its newest token. */
  expires_at: number;
  /**
   * The key its successor tokens are derived with (migrations/session-revocation.ts); null
   * only for a family written by a server from before that migration.
   */
  secret: string | null;
  /** What the session shows its user (migrations/session-details.ts); null for older families. */
  ip: string | null;
  user_agent: string | null;
  /** How it began: `password`, `magic-link`, `oauth:<provider>`, `anonymous`, `passkey`… */
  method: string | null;
  /** Unix ms: its sign-in or its latest refresh (never each request). */
  last_used_at: number | null;
};

export type RefreshTokensTable = {
  /** SHA-256 (base64url) of the token: the token itself is never stored. */
  token_hash: string;
  family_id: string;
  /** Unix ms. */
  expires_at: number;
  /** Unix ms at which it was rotated; null while it is the family's live token. */
  retired_at: number | null;
};

/** A project's app credentials (migrations/app-credentials.ts). */
export type AppCredentialsTable = {
  app_id: string;
  project_id: string;
  /** SHA-256 (hex) of the secret. */
  secret_hash: string;
  created_at: number;
};

export type ServiceKeysTable = {
  project_id: string;
  name: string;
  /** SHA-256 (hex) of the key. */
  key_hash: string;
  created_at: number;
};

/** Who a provider says a user is (issue 37; migrations/user-identities.ts). */
export type UserIdentitiesTable = {
  project_id: string;
  provider: string;
  subject: string;
  user_id: string;
  display_name: string;
  email: string | null;
  created_at: number | string;
};

/** One provider sign-in in progress (migrations/user-identities.ts). */
export type OAuthFlowsTable = {
  id: string;
  project_id: string;
  provider: string;
  client_state: string;
  code_verifier: string;
  nonce: string;
  redirect_to: string | null;
  client_address: string;
  created_at: number | string;
  expires_at: number | string;
  identity: string | null;
};
