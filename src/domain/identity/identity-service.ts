import {
  accessDenied,
  accountDisabled,
  invalidAppCredentials,
  invalidLogin,
  invalidRefreshToken,
  invalidToken,
} from '../../errors/errors.ts';
import { toPrincipal } from '../access/decide-file-access.ts';
import { toUnixSeconds } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import { anonymousRole, createAccount, createAnonymousAccount, type NewAccount } from './accounts.ts';
import type { AppCredential } from './app-credential-repository.ts';
import { AppSecretCheck } from './app-secrets.ts';
import { convertGuest } from './convert-guest.ts';
import { EpochCache } from './epoch-cache.ts';
import type { IdentityServiceOptions } from './identity-service-options.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { getDecoyHash, hashPassword, verifyPassword } from './passwords.ts';
import type { Project } from './project-repository.ts';
import {
  type Authenticated,
  type ClientContext,
  type Session,
  type SignInMethod,
  toClientInfo,
  toLogoutEvent,
  toMethodName,
} from './session-types.ts';
import type { IssuedToken } from './token-service.ts';
import type { User } from './user-repository.ts';
import { assertVerifiedWhereRequired } from './verified-email.ts';

export type { IdentityServiceOptions } from './identity-service-options.ts';

export type { Authenticated, ClientContext, Session, SignInMethod } from './session-types.ts';
export { toClientInfo } from './session-types.ts';
export { assertVerifiedWhereRequired } from './verified-email.ts';

/** App credentials, accounts, logins and tokens: barriers 2–3 of spec §5. */
export class IdentityService {
  readonly #o: IdentityServiceOptions;

  /** Projects by app id, with the credential: every API call names its app. */
  readonly #projectsByApp: EpochCache<{ project: Project; credential: AppCredential }>;
  readonly #appSecrets = new AppSecretCheck();

  constructor(options: IdentityServiceOptions) {
    this.#o = options;
    this.#projectsByApp = new EpochCache(options.accessEpoch);
  }

  /** The project an app id names, checking its secret in constant time when one is given. */
  async getProjectByApp(appId: string, appSecret?: string): Promise<Project> {
    const found = await this.#projectsByApp.get(appId, () => this.#findProjectByApp(appId));
    if (!found) throw invalidAppCredentials();
    if (appSecret !== undefined && !this.#appSecrets.isValid(found.credential, appSecret))
      throw invalidAppCredentials();
    return found.project;
  }

  /** A live app credential and its project (a revoked one is gone: the epoch drops it from caches). */
  async #findProjectByApp(appId: string) {
    const credential = await this.#o.appCredentials.findByAppId(appId);
    const project = credential && (await this.#o.projects.findById(credential.projectId));
    return project && { project, credential };
  }

  /**
   * Signup: a new account with role `user`; ACCESS_DENIED where the project closed signup (checked
   * before any allowance is drawn), RATE_LIMITED past the address's or the app's allowance.
   */
  async signup(project: Project, input: Omit<NewAccount, 'role'>, client: ClientContext): Promise<User> {
    if (project.settings.signup === 'closed') throw accessDenied('Signup is closed for this project');
    const attempt = { projectId: project.id, clientAddress: client.clientAddress };
    const by = userActor(null, toClientInfo(client));
    return this.#o.signupThrottle.guard(attempt, () => createAccount(this.#o.users, project, input, by));
  }

  /**
   * POST /auth/signup/anonymous: an account of role `anonymous`, only where the project's
   * `anonymousSignup` setting allows it; it draws on the same allowances as signup.
   */
  async signupAnonymous(project: Project, client: ClientContext): Promise<User> {
    if (!project.settings.anonymousSignup)
      throw accessDenied('Anonymous signup is not allowed in this project');
    // security: a project whose admin role is `anonymous` would hand out admin accounts.
    if (project.adminRole === anonymousRole)
      throw accessDenied('Anonymous signup is not allowed where the admin role is "anonymous"');
    const attempt = { projectId: project.id, clientAddress: client.clientAddress };
    const by = userActor(null, toClientInfo(client));
    return this.#o.signupThrottle.guard(attempt, () => createAnonymousAccount(this.#o.users, project, by));
  }

  /**
   * POST /auth/signup/anonymous/convert (issue 37, item 5): the guest becomes a member with this
   * address and password (convert-anonymous-account.ts), drawing on signup's allowances (an
   * argon2 hash each). The guest's sessions end with the change and a new one starts: a token
   * handed to a guest (often kept loosely) never opens the member's account.
   */
  async convertAnonymous(
    project: Project,
    caller: Authenticated,
    input: { email: string; password: string; displayName?: string },
    client: ClientContext,
  ): Promise<Session> {
    const member = await convertGuest(this.#o, project, caller.user, input, client);
    await this.accountConverted(member);
    return this.signIn(member, project, client, { method: 'password' });
  }

  /**
   * After a guest became a member: its sessions were deleted with the change (the other nodes
   * learn it from the session epoch); this process forgets them and its cached account now.
   */
  async accountConverted(user: User): Promise<void> {
    this.#o.accessEpoch.invalidate();
    await this.#o.refreshTokens.revokeAllFamilies(user);
  }

  /**
   * Spec 4.6. An unknown email costs one argon2 check too, and answers the same error; failed
   * logins are limited (RATE_LIMITED, login-throttle.ts).
   */
  async login(
    project: Project,
    credentials: { email: string; password: string },
    client: ClientContext,
  ): Promise<Session> {
    const { email, password } = credentials;
    const attempt = { projectId: project.id, email, clientAddress: client.clientAddress };
    const info = toClientInfo(client);
    const user = await this.#o.loginThrottle.guard(attempt, async () => {
      const found = await this.#o.users.findByEmail(project.id, email.trim());
      const passwordOk = await verifyPassword(password, found?.passwordHash ?? (await getDecoyHash()));
      const refusal = !found || !passwordOk ? invalidLogin() : !found.enabled ? accountDisabled() : undefined;
      if (refusal) {
        // A failed login changes nothing: its event is written alone, for the audit log.
        const at = this.#o.clock.now();
        const who = { id: found?.id ?? null, projectId: project.id };
        await this.#o.events.record(
          toUserEvent('user.login_failed', userActor(who.id, info), who, at, { reason: refusal.code }),
        );
        throw refusal;
      }
      return found!;
    });
    // Only once the password is right: a stranger learns nothing of the account's address.
    assertVerifiedWhereRequired(project, user);
    return this.signIn(user, project, client, { method: 'password' });
  }

  /**
   * A sign-in's end (password, mail link, provider): the session, unless the user has a second
   * factor (401 MFA_REQUIRED) or must enrol one (403 MFA_ENROLMENT_REQUIRED): the one gate
   * (issue 41, domain/mfa/second-factors.ts). A passkey sign-in is two factors: it starts its
   * session directly.
   */
  async signIn(user: User, project: Project, client: ClientContext, how: SignInMethod): Promise<Session> {
    await this.#o.signInGate?.assertSignInComplete(user, project, how);
    return this.startSession(user, project, client, how);
  }

  /**
   * A new session (refresh-token family) and its first access and refresh tokens; the token's
   * lifetime is the project's (read when the caller does not pass it).
   */
  async startSession(
    user: User,
    project: Project | undefined,
    client: ClientContext | undefined,
    /** How the user signed in, for the event (issue 37, item 6). */
    how: SignInMethod,
  ): Promise<Session> {
    const at = this.#o.clock.now();
    const info = client && toClientInfo(client);
    const login = toUserEvent('user.login', userActor(user.id, info), user, at, how);
    const details = { ip: info?.ip ?? null, userAgent: info?.userAgent ?? null, method: toMethodName(how) };
    const { familyId, refreshToken } = await this.#o.refreshTokens.start(user, login, details);
    const owner = project ?? (await this.#o.projects.findById(user.projectId));
    return { ...(await this.#issueAccessToken(user, familyId, owner)), refreshToken, user };
  }

  /**
   * POST /auth/refresh: rotates the refresh token (refresh-token-service.ts). Its account must
   * still exist and be enabled: a disabled account gets ACCOUNT_DISABLED and keeps nothing new.
   */
  async refresh(project: Project, refreshToken: string): Promise<Session> {
    const found = await this.#o.refreshTokens.find(refreshToken);
    if (!found || found.projectId !== project.id) throw invalidRefreshToken();
    const user = await this.#o.users.findById(project.id, found.userId);
    if (!user) throw invalidRefreshToken();
    if (!user.enabled) throw accountDisabled();
    assertVerifiedWhereRequired(project, user);
    const next = await this.#o.refreshTokens.rotate(refreshToken);
    const issued = await this.#issueAccessToken(user, next.familyId, project);
    return { ...issued, refreshToken: next.refreshToken, user };
  }

  /** Logout by refresh token: revokes its family; an unknown or revoked token is already logged out. */
  async logoutByRefreshToken(project: Project, refreshToken: string, client?: ClientContext): Promise<void> {
    const found = await this.#o.refreshTokens.find(refreshToken);
    if (found && found.projectId === project.id)
      await this.#o.refreshTokens.revokeFamily(
        found.familyId,
        toLogoutEvent(found, client && toClientInfo(client), this.#o.clock.now()),
      );
  }

  /** Logout by access token: revokes the family the token was issued with, and so the token. */
  async logout(caller: Authenticated): Promise<void> {
    if (caller.sessionId !== undefined)
      await this.#o.refreshTokens.revokeFamily(
        caller.sessionId,
        toLogoutEvent(caller.user, caller.principal.client, this.#o.clock.now()),
      );
  }

  /**
   * POST /auth/password. A wrong oldPassword is INVALID_LOGIN and counts against the account
   * exactly as a failed login does (login-throttle.ts), so a stolen access token cannot be
   * used to guess the password faster than the login form allows. Ends every other session
   * (refresh and access tokens); the caller's session goes on.
   */
  async changePassword(
    caller: Authenticated,
    passwords: { oldPassword: string; newPassword: string },
    client: ClientContext,
  ): Promise<void> {
    const { user } = caller;
    const attempt = { projectId: user.projectId, email: user.email, clientAddress: client.clientAddress };
    await this.#o.loginThrottle.guard(attempt, async () => {
      if (!(await verifyPassword(passwords.oldPassword, user.passwordHash)))
        throw invalidLogin('oldPassword is wrong');
    });
    assertPasswordPolicy(passwords.newPassword);
    const passwordHash = await hashPassword(passwords.newPassword);
    const changed = toUserEvent(
      'user.password_changed',
      userActor(user.id, toClientInfo(client)),
      user,
      this.#o.clock.now(),
    );
    await this.#o.users.setPasswordHash(user.projectId, user.id, passwordHash, changed);
    await this.#o.refreshTokens.revokeOtherFamilies(user, caller.sessionId);
  }

  async #issueAccessToken(user: User, sessionId: string, project?: Project): Promise<IssuedToken> {
    const claims = { userId: user.id, projectId: user.projectId, sessionId };
    const tokens = await this.#o.tokens.current();
    const lifetime = project?.settings.accessTokenLifetimeSeconds ?? undefined;
    return tokens.issue(claims, toUnixSeconds(this.#o.clock.now()), lifetime);
  }

  /**
   * Barrier 3: the bearer token, checked against the project of the app credentials; the
   * account is read on every call (from a cache that a change anywhere invalidates within the
   * access epoch's interval, cached-user-repository.ts), so a disabled account is refused; and
   * so is a token whose session ended (logout, password change or reset, reuse revocation,
   * expiry of its refresh tokens), as an invalid token (session-liveness.ts). A token whose `iss`
   * is an issuer the project trusts is that issuer's to vouch for (trusted-issuer-sign-in.ts); it
   * has no session.
   */
  async authenticate(
    project: Project,
    token: string,
    options: { unverifiedAllowed?: boolean } = {},
  ): Promise<Authenticated> {
    const issuer = this.#o.trustedIssuers?.issuerOf(project, token);
    if (issuer) {
      const user = await this.#o.trustedIssuers!.authenticate(project, issuer, token);
      if (!options.unverifiedAllowed) assertVerifiedWhereRequired(project, user);
      return { principal: toPrincipal(project, user), user };
    }
    const tokens = await this.#o.tokens.current();
    const now = this.#o.clock.now();
    const claims = tokens.verify(token, toUnixSeconds(now));
    if (claims.projectId !== project.id) throw invalidToken();
    const user = await this.#o.users.findById(project.id, claims.userId);
    if (!user) throw invalidToken();
    if (!user.enabled) throw accountDisabled();
    // A signup's session in a project that signs in verified addresses only asks for its mail.
    if (!options.unverifiedAllowed) assertVerifiedWhereRequired(project, user);
    const live = this.#o.refreshTokens.isLive(claims.sessionId, now);
    if (live !== true && (live === false || !(await live))) throw invalidToken();
    return {
      principal: toPrincipal(project, user),
      user,
      sessionId: claims.sessionId,
      expiresAt: claims.expiresAt,
    };
  }
}
