import { maxTokenLifetimeSeconds } from '../identity/setting-parsers.ts';
import type { KeyLifetime } from './key-schedule.ts';
import type { SigningKey } from './signing-key-repository.ts';

/**
 * The longest a token or link of each purpose can live under these settings: how long a key
 * keeps verifying after the next one took over (key-schedule.ts). Tokens: the server's
 * lifetime or the largest a project may set; links: the longest download or upload link.
 */
export function toKeyLifetimes(config: {
  tokenTtlSeconds: number;
  maxLinkTtlSeconds: number;
  uploadLinkTtlSeconds: number;
}): Record<SigningKey['purpose'], KeyLifetime> {
  return {
    token: { maxLifetimeSeconds: Math.max(config.tokenTtlSeconds, maxTokenLifetimeSeconds) },
    link: { maxLifetimeSeconds: Math.max(config.maxLinkTtlSeconds, config.uploadLinkTtlSeconds) },
  };
}
