import { accountDisabled, invalidAppCredentials, invalidLogin, invalidToken } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import type { Project, ProjectRepository, User, UserRepository } from '../ports.ts';
import type { AccessEpochWatch } from './access-epoch-watch.ts';
import { createAccount, type NewAccount } from './accounts.ts';
import { AppSecretCheck } from './app-secrets.ts';
import { EpochCache } from './epoch-cache.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { getDecoyHash, verifyPassword } from './passwords.ts';
import type { SignupThrottle } from './signup-throttle.ts';
import type { IssuedToken, TokenService } from './token-service.ts';

export type IdentityServiceOptions = {
  projects: ProjectRepository;
  users: UserRepository;
  tokens: TokenService;
  clock: Clock;
  loginThrottle: LoginThrottle;
  signupThrottle: SignupThrottle;
  /** When cached projects must be read again (a user cache, if any, is in `users`). */
  accessEpoch: AccessEpochWatch;
};

/** Who is asking: rate limits count per client address. */
export type ClientContext = { clientAddress: string };

export type Session = IssuedToken & { user: User };

/** App credentials, accounts, logins and tokens: barriers 2–3 of spec §5. */
export class IdentityService {
  readonly #o: IdentityServiceOptions;

  /** Projects by app id: every API call names its app. */
  readonly #projectsByApp: EpochCache<Project>;
  readonly #appSecrets = new AppSecretCheck();

  constructor(options: IdentityServiceOptions) {
    this.#o = options;
    this.#projectsByApp = new EpochCache(options.accessEpoch);
  }

  /** The project an app id names, checking its secret in constant time when one is given. */
  async getProjectByApp(appId: string, appSecret?: string): Promise<Project> {
    const project = await this.#projectsByApp.get(appId, () => this.#o.projects.findByAppId(appId));
    if (!project) throw invalidAppCredentials();
    if (appSecret !== undefined && !this.#appSecrets.isValid(project, appSecret))
      throw invalidAppCredentials();
    return project;
  }

  /** Signup: a new account with role `user`; RATE_LIMITED past the address's or the app's allowance. */
  async signup(project: Project, input: Omit<NewAccount, 'role'>, client: ClientContext): Promise<User> {
    const attempt = { projectId: project.id, clientAddress: client.clientAddress };
    return this.#o.signupThrottle.guard(attempt, () => createAccount(this.#o.users, project, input));
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
    return this.#o.loginThrottle.guard(attempt, async () => {
      const user = await this.#o.users.findByEmail(project.id, email.trim());
      const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await getDecoyHash()));
      if (!user || !passwordOk) throw invalidLogin();
      if (!user.enabled) throw accountDisabled();
      return this.startSession(user);
    });
  }

  startSession(user: User): Session {
    const issued = this.#o.tokens.issue(
      { userId: user.id, projectId: user.projectId },
      toUnixSeconds(this.#o.clock.now()),
    );
    return { ...issued, user };
  }

  /**
   * Barrier 3: the bearer token, checked against the project of the app credentials; the
   * account is read on every call (from a cache that a change anywhere invalidates within the
   * access epoch's interval, cached-user-repository.ts), so a disabled account is refused.
   */
  async authenticate(project: Project, token: string): Promise<{ principal: Principal; user: User }> {
    const claims = this.#o.tokens.verify(token, toUnixSeconds(this.#o.clock.now()));
    if (claims.projectId !== project.id) throw invalidToken();
    const user = await this.#o.users.findById(project.id, claims.userId);
    if (!user) throw invalidToken();
    if (!user.enabled) throw accountDisabled();
    const principal = {
      userId: user.id,
      projectId: project.id,
      role: user.role,
      isAdmin: user.role === project.adminRole,
    };
    return { principal, user };
  }
}
