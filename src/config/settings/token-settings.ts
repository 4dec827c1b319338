import type { Setting } from '../setting.ts';

/** Lifetimes of access and refresh tokens. */
export const tokenSettings = {
  tokenTtlSeconds: {
    env: 'COFFER_TOKEN_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 60,
    doc: 'Lifetime of access tokens issued by login and signup.',
  },
  refreshTokenTtlSeconds: {
    env: 'COFFER_REFRESH_TOKEN_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 2592000,
    min: 60,
    doc: 'Lifetime of a refresh token (30 days by default); each refresh answers a new one with a new lifetime.',
  },
  refreshTokenReuseGraceSeconds: {
    env: 'COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS',
    kind: 'integer',
    defaultValue: 20,
    min: 0,
    max: 300,
    doc: 'How long a rotated refresh token may still be refreshed (a client retrying after a lost answer); reuse after that revokes its whole family.',
  },
} as const satisfies Record<string, Setting>;
