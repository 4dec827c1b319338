import type { Clock } from '../clock.ts';
import type { EventLog } from '../events/event-log.ts';
import type { TrustedIssuerSignIn } from '../sign-in/trusted-issuer-sign-in.ts';
import type { AccessEpochWatch } from './access-epoch-watch.ts';
import type { AppCredentialRepository } from './app-credential-repository.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { Project, ProjectRepository } from './project-repository.ts';
import type { RefreshTokenService } from './refresh-token-service.ts';
import type { SignInMethod } from './session-types.ts';
import type { SignupThrottle } from './signup-throttle.ts';
import type { TokenService } from './token-service.ts';
import type { User, UserRepository } from './user-repository.ts';

/** What IdentityService works with. */
export type IdentityServiceOptions = {
  projects: ProjectRepository;
  appCredentials: AppCredentialRepository;
  users: UserRepository;
  /** The token service of the moment: keys rotate (domain/keys/signing-key-ring.ts). */
  tokens: { current(): Promise<TokenService> };

  refreshTokens: RefreshTokenService;
  clock: Clock;
  loginThrottle: LoginThrottle;
  signupThrottle: SignupThrottle;
  /** When cached projects must be read again (a user cache, if any, is in `users`). */
  accessEpoch: AccessEpochWatch;
  /** Where a failed login, which changes nothing, records its event. */
  events: EventLog;
  /** Bearer tokens of the issuers a project trusts (issue 37, item 4); none: Coffer's own only. */
  trustedIssuers?: TrustedIssuerSignIn;
  /** Second factors (issue 41): stops a sign-in of a user with one at MFA_REQUIRED. */
  signInGate?: {
    assertSignInComplete(user: User, project: Project, how: SignInMethod): Promise<void>;
  };
};
