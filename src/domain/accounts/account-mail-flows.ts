import { accessDenied, accountDisabled, invalidAccountToken, validationFailed } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { EventData } from '../events/event.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import type { AccessEpochWatch } from '../identity/access-epoch-watch.ts';
import type { AccountLinkPurpose } from '../identity/account-link-url.ts';
import {
  type ClientContext,
  type Session,
  type SignInMethod,
  toClientInfo,
} from '../identity/identity-service.ts';
import { assertPasswordPolicy } from '../identity/password-policy.ts';
import { hashPassword } from '../identity/passwords.ts';
import type { Project, ProjectRepository } from '../identity/project-repository.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import { toNewMail } from '../mail/mail.ts';
import type { MailPurpose } from '../mail/mail-template-settings.ts';
import { toAccountLink } from './account-links.ts';
import { renderAccountMail } from './account-mail-templates.ts';
import type { AccountMailThrottle } from './account-mail-throttle.ts';
import {
  type AccountTokenEffect,
  type AccountTokenPurpose,
  type AccountTokenRepository,
  hashAccountToken,
  mintAccountToken,
} from './account-token.ts';
import type { BackgroundTasks } from './background-tasks.ts';

/** What became of a request for a mail: the operator's metrics tell them apart, the caller never. */
export type AccountMailOutcome = 'queued' | 'no_account' | 'recipient_limited' | 'failed';

/** How long each kind of token lives, in seconds (COFFER_*_TTL_SECONDS). */
export type AccountTokenLifetimes = Record<AccountTokenPurpose, number>;

export type AccountMailFlowsOptions = {
  users: UserRepository;
  projects: ProjectRepository;
  tokens: AccountTokenRepository;
  throttle: AccountMailThrottle;
  lifetimes: AccountTokenLifetimes;
  clock: Clock;
  /** Users are cached behind it: a spent token changed one. */
  accessEpoch: AccessEpochWatch;
  /** Where Coffer's own pages are (links of projects without accountLinkUrl). */
  baseUrl: () => string;
  /**
   * After a reset (whose transaction deleted the user's sessions): ends them in this process at
   * once (refresh-token-service.ts revokeAllFamilies; the others follow within the session epoch).
   */
  sessionsEnded(user: User): Promise<void>;
  /** A magic link's session: identity-service.ts startSession. */
  startSession(user: User, project: Project, client: ClientContext, how: SignInMethod): Promise<Session>;
  background: BackgroundTasks;
  onRequestSettled?(purpose: AccountTokenPurpose, outcome: AccountMailOutcome): void;
};

export const accountMailPurposes: Record<
  AccountTokenPurpose,
  { template: MailPurpose; page: AccountLinkPurpose }
> = {
  'password-reset': { template: 'passwordReset', page: 'reset-password' },
  'verify-email': { template: 'emailVerification', page: 'verify-email' },
  'magic-link': { template: 'magicLink', page: 'magic-link' },
  // Sent by email-change-flows.ts, which mints them itself; listed so every purpose has its mail.
  'email-change': { template: 'emailChange', page: 'change-email' },
  'email-revert': { template: 'emailChanged', page: 'revert-email' },
};

/** One address, as signup takes it (accounts.ts); longer or malformed is a 400, before any limit. */
const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * Accounts by email (issue 23): password reset, email verification and sign-in by link. A
 * request answers the same, in the same time, whether the address has an account or not: the
 * limits run first for every address (account-mail-throttle.ts), then the answer goes and the
 * lookup and the mail happen after it (BackgroundTasks). A token is spent only by a POST.
 */
export class AccountMailFlows {
  readonly #o: AccountMailFlowsOptions;

  constructor(options: AccountMailFlowsOptions) {
    this.#o = options;
  }

  /** POST /auth/password-reset: a reset mail to an enabled account with a password. */
  requestPasswordReset(project: Project, email: string, client: ClientContext): Promise<void> {
    return this.#request(project, email, client, 'password-reset', (user) => user.enabled);
  }

  /** POST /auth/magic-link: a sign-in mail, where the project allows it. */
  requestMagicLink(project: Project, email: string, client: ClientContext): Promise<void> {
    if (!project.settings.magicLink) throw accessDenied('Sign-in by email link is off for this project');
    return this.#request(project, email, client, 'magic-link', (user) => user.enabled);
  }

  /** POST /auth/verify-email: a verification mail to an address not verified yet. */
  requestEmailVerification(project: Project, email: string, client: ClientContext): Promise<void> {
    return this.#request(project, email, client, 'verify-email', (user) => user.emailVerifiedAt === null);
  }

  /** Signup's verification mail where the project requires verified addresses (one per signup). */
  async sendEmailVerification(project: Project, user: User): Promise<void> {
    await this.#sendUnasked(project, user, 'verify-email');
  }

  /**
   * An operator's reset mail (the console): the same token and mail, sent now, counted against
   * the recipient's limits but not a client address's.
   */
  async sendPasswordReset(project: Project, user: User): Promise<void> {
    await this.#sendUnasked(project, user, 'password-reset');
  }

  /** A mail no client's request admitted: it still counts toward the recipient's limits. */
  async #sendUnasked(project: Project, user: User, purpose: AccountTokenPurpose): Promise<void> {
    await this.#send(project, user, purpose);
    await this.#o.throttle.countRecipient({ projectId: project.id, email: user.email });
  }

  /**
   * POST /auth/password-reset/confirm: the new password, every session of the account ended
   * (refresh families; their access tokens with them), the address verified.
   */
  async confirmPasswordReset(
    project: Project | undefined,
    input: { token: string; newPassword: string },
    client: ClientContext,
  ): Promise<void> {
    // The password first: a refused one leaves the token unspent, to try again.
    assertPasswordPolicy(input.newPassword);
    const passwordHash = await hashPassword(input.newPassword);
    const user = await this.#redeem(project, input.token, 'password-reset', (account) => ({
      passwordHash,
      endSessions: true,
      event: this.#event('user.password_changed', account, client, { method: 'reset' }),
    }));
    await this.#o.sessionsEnded(user);
  }

  /** POST /auth/verify-email/confirm: the address is the account's. */
  async confirmEmailVerification(
    project: Project | undefined,
    token: string,
    client: ClientContext,
  ): Promise<void> {
    await this.#redeem(project, token, 'verify-email', (user) => ({
      event: this.#event('user.updated', user, client, { emailVerified: true }),
    }));
  }

  /** POST /auth/magic-link/confirm: a new session, as a login answers. */
  async confirmMagicLink(
    project: Project | undefined,
    token: string,
    client: ClientContext,
  ): Promise<Session> {
    if (project && !project.settings.magicLink)
      throw accessDenied('Sign-in by email link is off for this project');
    const user = await this.#redeem(project, token, 'magic-link', (user) => {
      // A disabled account keeps its token: nothing is spent, nothing signs in.
      if (!user.enabled) throw accountDisabled();
      return {};
    });
    const owner = project ?? (await this.#o.projects.findById(user.projectId));
    if (!owner?.settings.magicLink) throw accessDenied('Sign-in by email link is off for this project');
    return this.#o.startSession(user, owner, client, { method: 'magic-link' });
  }

  async #request(
    project: Project,
    email: string,
    client: ClientContext,
    purpose: AccountTokenPurpose,
    wants: (user: User) => boolean,
  ): Promise<void> {
    if (!emailPattern.test(email.trim())) throw validationFailed('email must be an email address');
    const request = { projectId: project.id, email, clientAddress: client.clientAddress };
    const settled = (outcome: AccountMailOutcome) => this.#o.onRequestSettled?.(purpose, outcome);
    if (!(await this.#o.throttle.admit(request, project.settings.mailDailyBudget)))
      return settled('recipient_limited');
    this.#o.background.run(async () => {
      try {
        const user = await this.#o.users.findByEmail(project.id, email.trim());
        if (!user || !wants(user)) return settled('no_account');
        await this.#send(project, user, purpose);
        settled('queued');
      } catch (error) {
        settled('failed');
        throw error;
      }
    });
  }

  async #send(project: Project, user: User, purpose: AccountTokenPurpose): Promise<void> {
    const now = this.#o.clock.now();
    const lifetimeSeconds = this.#o.lifetimes[purpose];
    const { token, tokenHash } = mintAccountToken();
    const { template, page } = accountMailPurposes[purpose];
    const message = renderAccountMail(template, project.settings.mailTemplates, {
      to: user.email,
      link: toAccountLink(project, page, token, this.#o.baseUrl()),
      project: project.name,
      email: user.email,
      minutes: Math.round(lifetimeSeconds / 60),
    });
    await this.#o.tokens.issue(
      {
        tokenHash,
        projectId: project.id,
        userId: user.id,
        purpose,
        email: user.email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
      },
      toNewMail(message, { projectId: project.id, purpose, now }),
    );
    await this.#o.throttle.spendBudget(project.id, project.settings.mailDailyBudget);
  }

  /** An event of the account, by its owner from this client. */
  #event(type: 'user.password_changed' | 'user.updated', user: User, client: ClientContext, data: EventData) {
    return toUserEvent(type, userActor(user.id, toClientInfo(client)), user, this.#o.clock.now(), data);
  }

  /** Spends a token of this purpose (in this project, when the call named one); INVALID_TOKEN otherwise. */
  async #redeem(
    project: Project | undefined,
    token: string,
    purpose: AccountTokenPurpose,
    effect: (user: User) => AccountTokenEffect,
  ): Promise<User> {
    const now = this.#o.clock.now();
    const tokenHash = hashAccountToken(token);
    let user: User | undefined;
    try {
      user = await this.#o.tokens.redeem({ tokenHash, projectId: project?.id, purpose }, now, effect);
    } finally {
      // The account changed (verified, maybe a new password): no process may serve the old one.
      this.#o.accessEpoch.invalidate();
    }
    if (!user) throw invalidAccountToken();
    return user;
  }
}
