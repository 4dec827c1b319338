import { IdentityService } from '../domain/identity/identity-service.ts';
import { LoginThrottle } from '../domain/identity/login-throttle.ts';
import { Reauthentication } from '../domain/identity/reauthentication.ts';
import { RefreshTokenService } from '../domain/identity/refresh-token-service.ts';
import { ServiceKeys } from '../domain/identity/service-keys.ts';
import { SignupThrottle } from '../domain/identity/signup-throttle.ts';
import { TokenService } from '../domain/identity/token-service.ts';
import { UserSessions } from '../domain/identity/user-sessions.ts';
import { SecondFactors } from '../domain/mfa/second-factors.ts';
import { SecretBox } from '../domain/mfa/secret-box.ts';
import { OperatorService } from '../domain/operators/operator-service.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import { TrustedIssuerSignIn } from '../domain/sign-in/trusted-issuer-sign-in.ts';
import { JoseTrustedTokenVerifier } from '../identity-providers/jose-trusted-token-verifier.ts';
import { createProviderFetch } from '../identity-providers/provider-fetch.ts';
import { mfaKeysOf } from './mfa-keys.ts';
import { buildKeyRing, type InitialKeys } from './signing-keys.ts';
import type { WiringContext } from './wiring-context.ts';

/** Who calls: projects' users and apps, and the console's operators. */
export type IdentityServices = {
  identity: IdentityService;
  /** The console's operators and their sessions. */
  operators: OperatorService;
  /** Users' sessions (refresh-token families): a password reset ends them all. */
  refreshTokens: RefreshTokenService;
  /** Projects' server-only admin credentials (issue 35). */
  serviceKeys: ServiceKeys;
  /** Proof that a session's holder is its user, before a risky step (issue 41). */
  reauthentication: Reauthentication;
  /** A user's own list of their sessions, and ending them (issue 41, item 4). */
  sessions: UserSessions;
  /** TOTP, recovery codes and the second step of a sign-in (issue 41). */
  secondFactors: SecondFactors;
};

export function buildIdentityServices(context: WiringContext, keys: InitialKeys): IdentityServices {
  const { config, clock, repositories } = context;
  const tokens = buildKeyRing(
    context,
    { purpose: 'token', keys: keys.token },
    (hmacKeys) => new TokenService({ keys: hmacKeys, ttlSeconds: config.tokenTtlSeconds }),
  );
  const throttles = buildThrottles(context);
  const refreshTokens = new RefreshTokenService({
    repository: repositories.refreshTokens,
    clock,
    ttlSeconds: config.refreshTokenTtlSeconds,
    reuseGraceSeconds: config.refreshTokenReuseGraceSeconds,
  });
  const secondFactors = new SecondFactors({
    mfa: repositories.mfa,
    users: repositories.users,
    box: new SecretBox(mfaKeysOf(config)),
    clock,
    loginThrottle: throttles.loginThrottle,
    passkeys: repositories.passkeys,
  });
  return {
    refreshTokens,
    sessions: new UserSessions(refreshTokens),
    secondFactors,
    reauthentication: new Reauthentication({
      loginThrottle: throttles.loginThrottle,
      refreshTokens: repositories.refreshTokens,
      clock,
      secondFactor: secondFactors,
    }),
    serviceKeys: new ServiceKeys({ repository: repositories.serviceKeys, accessEpoch: context.accessEpoch }),
    operators: new OperatorService({
      operators: repositories.operators,
      throttle: throttles.loginThrottle,
      clock,
    }),
    identity: new IdentityService({
      projects: repositories.projects,
      appCredentials: repositories.appCredentials,
      users: repositories.users,
      tokens,
      refreshTokens,
      clock,
      accessEpoch: context.accessEpoch,
      events: repositories.events,
      trustedIssuers: buildTrustedIssuers(context),
      signInGate: secondFactors,
      ...throttles,
    }),
  };
}

/** Bearer tokens of issuers a project trusts (issue 37, item 4); their keys come through the guarded fetch. */
function buildTrustedIssuers({ config, repositories, clock }: WiringContext): TrustedIssuerSignIn {
  const timeoutSeconds = config.oauthTimeoutSeconds;
  const fetch = createProviderFetch({ allowPrivate: config.oauthAllowPrivate, timeoutSeconds });
  return new TrustedIssuerSignIn({
    verifier: new JoseTrustedTokenVerifier({ fetch, timeoutSeconds }),
    users: repositories.users,
    identities: repositories.userIdentities,
    clock,
  });
}

/** Login and signup limits, counted in the metadata store so that every process shares them. */
function buildThrottles({ config, repositories, clock }: WiringContext) {
  const buckets = new TokenBuckets(repositories.rateLimits);
  return {
    loginThrottle: new LoginThrottle({
      buckets,
      clock,
      limits: {
        perAccountAddress: toBucketRule(config.loginFailuresPerAccountAddressPerHour),
        perAccount: toBucketRule(config.loginFailuresPerAccountPerHour),
        perAddress: toBucketRule(config.loginFailuresPerAddressPerHour),
      },
    }),
    signupThrottle: new SignupThrottle({
      buckets,
      clock,
      limits: {
        perAddress: toBucketRule(config.signupsPerAddressPerHour),
        perApp: toBucketRule(config.signupsPerAppPerHour),
      },
    }),
  };
}
