import { accessDenied, invalidAccountToken, validationFailed } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import { toUserEvent, userActor } from '../events/user-events.ts';
import type { AccessEpochWatch } from '../identity/access-epoch-watch.ts';
import { anonymousRole } from '../identity/accounts.ts';
import type { Project, ProjectRepository } from '../identity/project-repository.ts';
import type { IdentityProof, Reauthentication } from '../identity/reauthentication.ts';
import { type Authenticated, type ClientContext, toClientInfo } from '../identity/session-types.ts';
import type { User, UserRepository } from '../identity/user-repository.ts';
import { toNewMail } from '../mail/mail.ts';
import { toAccountLink } from './account-links.ts';
import type { AccountMailOutcome } from './account-mail-flows.ts';
import { renderAccountMail } from './account-mail-templates.ts';
import type { AccountMailThrottle } from './account-mail-throttle.ts';
import { type AccountTokenRepository, hashAccountToken, mintAccountToken } from './account-token.ts';
import type { BackgroundTasks } from './background-tasks.ts';
import type { EmailChangeRepository, EmailSwitchEffect } from './email-change-repository.ts';

/** How long the old address may undo a change (issue 41, item 3: "for 7 days"). */
export const revertLifetimeSeconds = 7 * 86_400;

export type EmailChangeFlowsOptions = {
  users: UserRepository;
  projects: Pick<ProjectRepository, 'findById'>;
  tokens: Pick<AccountTokenRepository, 'issue'>;
  changes: EmailChangeRepository;
  throttle: AccountMailThrottle;
  reauthentication: Pick<Reauthentication, 'confirm'>;
  /** How long the new address's link lives (COFFER_EMAIL_VERIFICATION_TTL_SECONDS). */
  changeLifetimeSeconds: number;
  clock: Clock;
  accessEpoch: AccessEpochWatch;
  baseUrl: () => string;
  /** Ends the account's sessions in this process at once, but `keep` (refresh-token-service.ts). */
  sessionsEnded(user: User, keep?: string): Promise<void>;
  background: BackgroundTasks;
  onRequestSettled?(purpose: 'email-change', outcome: AccountMailOutcome): void;
};

const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Changing an account's address (issue 41, item 3): the signed-in user proves it is them and
 * names the new address, which gets a link; the link switches the address (verified), ends
 * every other session and mails the old address a link that switches back, for 7 days, ending
 * every session. As with the other account mails (account-mail-flows.ts), the answer is the same
 * whether the new address is free or another account's, and the lookup runs after it; a taken
 * address gets no mail (docs/decisions.md, "Changing an address").
 */
export class EmailChangeFlows {
  readonly #o: EmailChangeFlowsOptions;

  constructor(options: EmailChangeFlowsOptions) {
    this.#o = options;
  }

  /** POST /user/email {newEmail, password}: 202 whatever becomes of it. */
  async requestChange(
    caller: Authenticated,
    project: Project,
    input: { newEmail: string } & IdentityProof,
    client: ClientContext,
  ): Promise<void> {
    const { user } = caller;
    assertSessionOfUser(caller, 'change its address');
    if (user.role === anonymousRole)
      throw accessDenied('A guest account gets an address by converting it (POST /api/v1/auth/convert)');
    const newEmail = input.newEmail.trim();
    if (!emailPattern.test(newEmail)) throw validationFailed('newEmail must be an email address');
    if (same(newEmail, user.email)) throw validationFailed('newEmail is the account’s address already');
    const { newEmail: _newEmail, ...proof } = input;
    await this.#o.reauthentication.confirm(caller, proof, client);
    const settled = (outcome: AccountMailOutcome) => this.#o.onRequestSettled?.('email-change', outcome);
    const request = { projectId: project.id, email: newEmail, clientAddress: client.clientAddress };
    if (!(await this.#o.throttle.admit(request, project.settings.mailDailyBudget)))
      return settled('recipient_limited');
    this.#o.background.run(async () => {
      try {
        // Taken: no mail at all (its holder did not ask for anything; the asker learns nothing).
        if (await this.#o.users.findByEmail(project.id, newEmail)) return settled('no_account');
        await this.#sendChange(project, user, newEmail);
        settled('queued');
      } catch (error) {
        settled('failed');
        throw error;
      }
    });
  }

  /**
   * POST /user/email/confirm {token}: the switch. Every session of the account ends but the
   * confirming caller's own (a bearer of the same account on the call); without one, all.
   */
  async confirmChange(
    project: Project | undefined,
    token: string,
    client: ClientContext,
    confirmer?: Authenticated,
  ): Promise<void> {
    const tokenHash = hashAccountToken(token);
    const owner = await this.#projectOf(project, tokenHash, 'email-change');
    const keep = confirmer?.user.projectId === owner.id ? confirmer.sessionId : undefined;
    const now = this.#o.clock.now();
    const result = await this.#switch({ tokenHash, owner, purpose: 'email-change', keep }, (user, to) => ({
      event: this.#event(user, client, { previousEmail: user.email, email: to, reverted: false }),
      revert: this.#revertOf(owner, user, to, now),
    }));
    // Another account's session is no session of this one: keeping it keeps nothing here.
    await this.#o.sessionsEnded(result.user, keep);
    if (result.revertIssued) {
      await this.#o.throttle.countRecipient({ projectId: owner.id, email: result.previousEmail });
      await this.#o.throttle.spendBudget(owner.id, owner.settings.mailDailyBudget);
    }
  }

  /** POST /user/email/revert {token}: back to the old address; every session ends. */
  async revertChange(project: Project | undefined, token: string, client: ClientContext): Promise<void> {
    const tokenHash = hashAccountToken(token);
    const owner = await this.#projectOf(project, tokenHash, 'email-revert');
    const result = await this.#switch({ tokenHash, owner, purpose: 'email-revert' }, (user, to) => ({
      event: this.#event(user, client, { previousEmail: user.email, email: to, reverted: true }),
    }));
    await this.#o.sessionsEnded(result.user);
  }

  async #switch(
    input: { tokenHash: string; owner: Project; purpose: 'email-change' | 'email-revert'; keep?: string },
    effect: (user: User, to: string) => EmailSwitchEffect,
  ) {
    try {
      const result = await this.#o.changes.switchEmail(
        {
          tokenHash: input.tokenHash,
          projectId: input.owner.id,
          purpose: input.purpose,
          now: this.#o.clock.now(),
          keepSessionId: input.keep,
        },
        effect,
      );
      if (!result) throw invalidAccountToken();
      return result;
    } finally {
      // The account changed: no process may serve the old one from its cache.
      this.#o.accessEpoch.invalidate();
    }
  }

  /** The project whose token it is: the call's, or (Coffer's pages name none) the token's own. */
  async #projectOf(
    project: Project | undefined,
    tokenHash: string,
    purpose: 'email-change' | 'email-revert',
  ): Promise<Project> {
    if (project) return project;
    const projectId = await this.#o.changes.findTokenProjectId(tokenHash, purpose);
    const found = projectId === undefined ? undefined : await this.#o.projects.findById(projectId);
    if (!found) throw invalidAccountToken();
    return found;
  }

  async #sendChange(project: Project, user: User, newEmail: string): Promise<void> {
    const now = this.#o.clock.now();
    const lifetimeSeconds = this.#o.changeLifetimeSeconds;
    const { token, tokenHash } = mintAccountToken();
    const message = renderAccountMail('emailChange', project.settings.mailTemplates, {
      to: newEmail,
      link: toAccountLink(project, 'change-email', token, this.#o.baseUrl()),
      project: project.name,
      email: newEmail,
      minutes: Math.round(lifetimeSeconds / 60),
    });
    await this.#o.tokens.issue(
      {
        tokenHash,
        projectId: project.id,
        userId: user.id,
        purpose: 'email-change',
        email: newEmail,
        fromEmail: user.email,
        createdAt: now,
        expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
      },
      toNewMail(message, { projectId: project.id, purpose: 'email-change', now }),
    );
    await this.#o.throttle.spendBudget(project.id, project.settings.mailDailyBudget);
  }

  /** The token and mail that undo a change from `user.email` to `to`, mailed to the old address. */
  #revertOf(project: Project, user: User, to: string, now: Date): EmailSwitchEffect['revert'] {
    const { token, tokenHash } = mintAccountToken();
    const message = renderAccountMail('emailChanged', project.settings.mailTemplates, {
      to: user.email,
      link: toAccountLink(project, 'revert-email', token, this.#o.baseUrl()),
      project: project.name,
      email: user.email,
      newEmail: to,
      minutes: Math.round(revertLifetimeSeconds / 60),
    });
    return {
      token: {
        tokenHash,
        projectId: project.id,
        userId: user.id,
        purpose: 'email-revert',
        email: user.email,
        fromEmail: to,
        createdAt: now,
        expiresAt: new Date(now.getTime() + revertLifetimeSeconds * 1000),
      },
      mail: toNewMail(message, { projectId: project.id, purpose: 'email-revert', now }),
    };
  }

  #event(
    user: User,
    client: ClientContext,
    data: { previousEmail: string; email: string; reverted: boolean },
  ) {
    const by = userActor(user.id, toClientInfo(client));
    return toUserEvent('user.email_changed', by, user, this.#o.clock.now(), data);
  }
}

/**
 * A step only a user's own session may take: a service key is no user, and a trusted issuer's
 * token has no session (its issuer keeps the account: it would make it again on the next token).
 */
export function assertSessionOfUser(caller: Authenticated, what: string): void {
  if (caller.sessionId === undefined)
    throw accessDenied(
      `Only a session signed in to Coffer may ${what}: this token has none (a trusted issuer's accounts are its issuer's to change)`,
    );
}
