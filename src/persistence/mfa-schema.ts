/** Second factors' tables (issue 41; migrations/mfa.ts). */
export type MfaTables = {
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  mfa_tokens: MfaTokensTable;
};

export type UserTotpTable = {
  project_id: string;
  user_id: string;
  /** Sealed (AES-256-GCM, src/domain/mfa/secret-box.ts): never the secret in clear. */
  secret: string | null;
  pending_secret: string | null;
  confirmed_at: number | string | null;
  last_step: number | string | null;
  updated_at: number | string;
};

export type RecoveryCodesTable = {
  project_id: string;
  user_id: string;
  /** SHA-256 (hex) of the code. */
  code_hash: string;
  used_at: number | string | null;
};

export type MfaTokensTable = {
  /** SHA-256 (hex) of the token. */
  token_hash: string;
  project_id: string;
  user_id: string;
  purpose: string;
  sign_in: string;
  failures: number;
  created_at: number | string;
  expires_at: number | string;
};
