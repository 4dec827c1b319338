import { AccountMailFlows } from '../domain/accounts/account-mail-flows.ts';
import { AccountMailThrottle } from '../domain/accounts/account-mail-throttle.ts';
import { BackgroundTasks } from '../domain/accounts/background-tasks.ts';
import { EmailChangeFlows, revertLifetimeSeconds } from '../domain/accounts/email-change-flows.ts';
import { toMaskedAddress } from '../domain/mail/masked-address.ts';
import { TokenBuckets, toBucketRule } from '../domain/rate-limits/token-buckets.ts';
import type { ServiceMetrics } from '../metrics/service-metrics.ts';
import type { IdentityServices } from './identity-services.ts';
import type { WiringContext } from './wiring-context.ts';

type Log = { error(details: object, message: string): void; warn(details: object, message: string): void };

/** Accounts by email (issue 23): reset, verification and sign-in mails; email change (issue 41). */
export type AccountServices = {
  accountMail: AccountMailFlows;
  /** Changing an account's address and undoing it (issue 41). */
  emailChange: EmailChangeFlows;
  /** Where a mail lookup that failed after its answer is reported (the server's log, once it has one). */
  reportAccountMailErrorsTo(log: Log): void;
  /** Waits for the lookups and mails still under way (before the database closes). */
  closeAccountMail(): Promise<void>;
};

export function buildAccountServices(
  context: WiringContext,
  shared: { identity: IdentityServices; metrics: ServiceMetrics },
): AccountServices {
  const { config, repositories, clock, publicUrl } = context;
  let log: Log | undefined;
  const background = new BackgroundTasks((error) => {
    if (log) log.error({ err: error }, 'an account mail could not be queued');
    else process.stderr.write(`an account mail could not be queued: ${String(error)}\n`);
  });
  const throttle = new AccountMailThrottle({
    buckets: new TokenBuckets(repositories.rateLimits),
    clock,
    limits: { perClient: toBucketRule(config.accountMailsPerClientPerHour) },
    // Logged (the address masked, docs/security.md) and counted: a silent drop is findable.
    onDropped: ({ reason, projectId, email }) => {
      shared.metrics.mail.mailDropped(reason);
      log?.warn({ reason, projectId, to: toMaskedAddress(email) }, 'an account mail was dropped by a limit');
    },
  });
  const accountMail = new AccountMailFlows({
    users: repositories.users,
    projects: repositories.projects,
    tokens: repositories.accountTokens,
    throttle,
    lifetimes: {
      'password-reset': config.passwordResetTtlSeconds,
      'verify-email': config.emailVerificationTtlSeconds,
      'magic-link': config.magicLinkTtlSeconds,
      'email-change': config.emailVerificationTtlSeconds,
      'email-revert': revertLifetimeSeconds,
    },
    clock,
    accessEpoch: context.accessEpoch,
    baseUrl: () => publicUrl.value,
    sessionsEnded: (user) => shared.identity.refreshTokens.revokeAllFamilies(user),
    // Through the second-factor gate (issue 41): a magic link is one factor.
    startSession: (user, project, client, how) => shared.identity.identity.signIn(user, project, client, how),
    background,
    onRequestSettled: (purpose, outcome) => shared.metrics.mail.accountMailRequested(purpose, outcome),
  });
  const emailChange = new EmailChangeFlows({
    users: repositories.users,
    projects: repositories.projects,
    tokens: repositories.accountTokens,
    changes: repositories.emailChanges,
    throttle,
    reauthentication: shared.identity.reauthentication,
    changeLifetimeSeconds: config.emailVerificationTtlSeconds,
    clock,
    accessEpoch: context.accessEpoch,
    baseUrl: () => publicUrl.value,
    sessionsEnded: (user, keep) => shared.identity.refreshTokens.revokeOtherFamilies(user, keep),
    background,
    onRequestSettled: (purpose, outcome) => shared.metrics.mail.accountMailRequested(purpose, outcome),
  });
  return {
    accountMail,
    emailChange,
    reportAccountMailErrorsTo: (next) => {
      log = next;
    },
    closeAccountMail: () => background.close(),
  };
}
