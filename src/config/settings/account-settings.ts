import type { Setting } from '../setting.ts';

/** Accounts by email (issue 23): how long mails' tokens live, and how often a client may ask for them. */
export const accountSettings = {
  passwordResetTtlSeconds: {
    env: 'COFFER_PASSWORD_RESET_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 1800,
    min: 60,
    max: 86_400,
    doc: "Lifetime of a password reset mail's link (30 minutes by default).",
  },
  emailVerificationTtlSeconds: {
    env: 'COFFER_EMAIL_VERIFICATION_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 86_400,
    min: 60,
    max: 604_800,
    doc: "Lifetime of an email verification mail's link (24 hours by default).",
  },
  magicLinkTtlSeconds: {
    env: 'COFFER_MAGIC_LINK_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 900,
    min: 60,
    max: 3600,
    doc: "Lifetime of a sign-in mail's link (15 minutes by default).",
  },
  accountMailsPerClientPerHour: {
    env: 'COFFER_ACCOUNT_MAILS_PER_CLIENT_PER_HOUR',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    doc: 'Account mail requests (reset, verification, magic link) one client address may make an hour, for any addresses; past it 429 RATE_LIMITED. Each recipient also gets at most one such mail a minute and five an hour, silently.',
  },
} as const satisfies Record<string, Setting>;
