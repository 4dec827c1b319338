import { hasPassword } from '../domain/identity/accounts.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import { OAuthSignIn } from '../domain/sign-in/oauth-sign-in.ts';
import { OidcProviderClient } from '../identity-providers/oidc-provider-client.ts';
import { createProviderFetch } from '../identity-providers/provider-fetch.ts';
import type { IdentityServices } from './identity-services.ts';
import type { WiringContext } from './wiring-context.ts';

/** Sign-in with identity providers (issue 37). */
export type SignInServices = { oauthSignIn: OAuthSignIn };

export function buildSignInServices(
  context: WiringContext,
  shared: { identity: IdentityServices },
): SignInServices {
  const { config, repositories, clock, publicUrl } = context;
  const allowPrivate = config.oauthAllowPrivate;
  const fetch = createProviderFetch({ allowPrivate, timeoutSeconds: config.oauthTimeoutSeconds });
  const oauthSignIn = new OAuthSignIn({
    providers: new OidcProviderClient({
      fetch,
      allowInsecure: allowPrivate,
      timeoutSeconds: config.oauthTimeoutSeconds,
    }),
    flows: repositories.oauthFlows,
    identities: repositories.userIdentities,
    users: repositories.users,
    sessions: shared.identity.identity,
    hasPassword,
    clock,
    callbackUrl: (provider) => `${publicUrl.value}/api/v1/oauth/${encodeURIComponent(provider)}/callback`,
    perAddress: {
      buckets: new TokenBuckets(repositories.rateLimits),
      rule: toBucketRule(config.oauthFlowsPerAddressPerHour),
    },
  });
  return { oauthSignIn };
}
