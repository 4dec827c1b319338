import type { Setting } from '../setting.ts';

/** The token buckets of logins, signups and shares by email. */
export const rateLimitSettings = {
  loginFailuresPerAccountAddressPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    doc: 'Failed logins one client address may make on one account: this many at once, then the allowance refills over an hour (429 RATE_LIMITED beyond).',
  },
  loginFailuresPerAccountPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    doc: 'Failed logins on one account from all addresses together, refilling over an hour; keep it above twice the per account and address value, so that one or two addresses cannot lock the owner out.',
  },
  loginFailuresPerAddressPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 600,
    min: 1,
    doc: 'Failed logins one client address may make on all accounts together, refilling over an hour.',
  },
  signupsPerAddressPerHour: {
    env: 'COFFER_SIGNUPS_PER_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 100,
    min: 1,
    doc: 'Signup attempts one client address may make, refilling over an hour (429 RATE_LIMITED beyond).',
  },
  signupsPerAppPerHour: {
    env: 'COFFER_SIGNUPS_PER_APP_PER_HOUR',
    kind: 'integer',
    defaultValue: 1000,
    min: 1,
    doc: 'Signup attempts one app (project) may receive from all addresses together, refilling over an hour.',
  },
  emailSharesPerUserPerHour: {
    env: 'COFFER_EMAIL_SHARES_PER_USER_PER_HOUR',
    kind: 'integer',
    defaultValue: 300,
    min: 1,
    doc: 'Shares by email one user (not an admin) may ask for, refilling over an hour: each tells whether the address has an account.',
  },
} as const satisfies Record<string, Setting>;
