import { createHash } from 'node:crypto';
import { LoginThrottle } from '../domain/identity/login-throttle.ts';
import { PasskeyRegistration } from '../domain/passkeys/passkey-registration.ts';
import { PasskeySignIn } from '../domain/passkeys/passkey-sign-in.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import type { IdentityServices } from './identity-services.ts';
import type { InitialKeys } from './signing-keys.ts';
import type { WiringContext } from './wiring-context.ts';

/** Passkeys (issue 41): registering them, and signing in with them. */
export type PasskeyServices = { passkeyRegistration: PasskeyRegistration; passkeySignIn: PasskeySignIn };

export function buildPasskeyServices(
  context: WiringContext,
  shared: { identity: IdentityServices; keys: InitialKeys },
): PasskeyServices {
  const { config, repositories, clock } = context;
  const buckets = new TokenBuckets(repositories.rateLimits);
  return {
    passkeyRegistration: new PasskeyRegistration({ passkeys: repositories.passkeys, clock }),
    passkeySignIn: new PasskeySignIn({
      passkeys: repositories.passkeys,
      users: repositories.users,
      sessions: shared.identity.identity,
      // The same buckets as password logins (shared in the database): a failed passkey is a failed login.
      loginThrottle: new LoginThrottle({
        buckets,
        clock,
        limits: {
          perAccountAddress: toBucketRule(config.loginFailuresPerAccountAddressPerHour),
          perAccount: toBucketRule(config.loginFailuresPerAccountPerHour),
          perAddress: toBucketRule(config.loginFailuresPerAddressPerHour),
        },
      }),
      events: repositories.events,
      clock,
      // As many as provider sign-ins: both are a public start of a sign-in that stores a row.
      perAddress: { buckets, rule: toBucketRule(config.oauthFlowsPerAddressPerHour) },
      decoyKey: toDecoyKey(shared.keys),
    }),
  };
}

/**
 * The stand-in credential ids' key, derived from the oldest token key every node reads at
 * start (the first start's, under a fixed id): stable across nodes and restarts.
 */
function toDecoyKey(keys: InitialKeys): Uint8Array {
  const oldest = [...keys.token].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
  if (!oldest) throw new Error('no token signing key');
  return createHash('sha256').update('coffer passkey decoys\0').update(oldest.secret).digest();
}
