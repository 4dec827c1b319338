import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ProjectSettings } from '../../src/domain/identity/project-settings.ts';
import { startSmtpReceiver } from '../mail/smtp-receiver.ts';
import type { ApiClient } from '../support/api-client.ts';
import type { TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';
import { waitUntil } from '../support/webhook-receiver.ts';
import { counterValue, linkOf, mailsTo, startMailingServer, waitForMail } from './account-mail-support.ts';

/**
 * Issue 23, items 2–7: password reset, email verification and sign-in by link, followed from the
 * mail a real SMTP server (smtp-server) received, over HTTP to the real app. A manual clock moves
 * through cooldowns and lifetimes.
 */
describe(`accounts by email (${currentStackName()} stack)`, () => {
  const clock = new ManualClock();
  let server: TestServer;
  let client: ApiClient;
  let receiver: Awaited<ReturnType<typeof startMailingServer>>['receiver'];
  let world: Awaited<ReturnType<typeof startMailingServer>> | undefined;
  let counter = 0;
  const freshEmail = () => `user-${Date.now().toString(36)}-${++counter}@example.com`;

  before(async () => {
    world = await startMailingServer(clock);
    ({ server, receiver } = world);
    client = server.client;
  });
  after(async () => {
    await world?.stop();
    // One test stops the SMTP server and starts another on its port.
    if (receiver !== world?.receiver) await receiver?.close();
  });

  /** Changes the project's settings as `coffer project set` does, then waits until the server acts on them. */
  async function setSettings(change: Partial<ProjectSettings>): Promise<void> {
    const { projects } = server.services.repositories;
    const project = await projects.findById(client.credentials.projectId);
    const updated = await projects.updateSettings(project!.id, { ...project!.settings, ...change });
    // Requests read the project through a cache behind the access epoch: wait until it has the change.
    const shown = (seen: typeof updated) => JSON.stringify([seen!.settings, seen!.allowedOrigins]);
    await waitUntil(async () => {
      const seen = await server.services.identity.getProjectByApp(client.credentials.appId);
      return shown(seen) === shown(updated) ? true : undefined;
    }, 'the server to see the new settings');
  }

  /** Waits until every request so far of this purpose is settled (its mail queued or not sent). */
  async function settledCount(purpose: string, outcome: string): Promise<number> {
    return counterValue(
      server.baseUrl,
      `coffer_account_mail_requests_total{purpose="${purpose}",outcome="${outcome}"}`,
    );
  }

  it('password reset: 202 for known and unknown addresses alike, a mail only to the account, old sessions end, the token is single use', async () => {
    const user = await client.signup(freshEmail());
    const before = await client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(before.status, 200, 'the session is live, and known to this process');
    const unknown = freshEmail();
    const noAccountBefore = await settledCount('password-reset', 'no_account');
    const known = await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
    const stranger = await client.call('POST', '/api/v1/auth/password-reset', { body: { email: unknown } });
    assert.equal(known.status, 202);
    assert.deepEqual(known.body, {});
    assert.equal(stranger.status, known.status);
    assert.equal(stranger.text, known.text);
    assert.equal(stranger.headers.get('content-type'), known.headers.get('content-type'));

    const mail = await waitForMail(receiver.received, user.email);
    await waitUntil(
      async () => ((await settledCount('password-reset', 'no_account')) > noAccountBefore ? true : undefined),
      'the unknown address settled',
    );
    assert.equal(mailsTo(receiver.received, unknown).length, 0, 'no mail to an address without an account');
    assert.match(mail.parsed.subject ?? '', /Reset your default password/);
    const link = linkOf(mail);
    assert.equal(link.page, `${server.baseUrl}/account/reset-password`);
    assert.ok(
      (mail.parsed.html || '').includes(`#token=${link.token}`),
      'the HTML part links the same token',
    );

    // A mail scanner fetches the page: nothing is spent.
    const scanned = await fetch(link.page);
    assert.equal(scanned.status, 200);
    assert.match(await scanned.text(), /Choose a new password/);
    const head = await fetch(link.page, { method: 'HEAD' });
    assert.equal(head.status, 200);

    const weak = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'short' },
    });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.code, 'VALIDATION_FAILED');

    const confirmed = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'a brand new passphrase' },
    });
    assert.equal(confirmed.status, 204, confirmed.text);

    const again = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'another new passphrase' },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'INVALID_TOKEN');

    // The old session's access token ends with it, on this process at once (issue 23, item 8).
    const oldToken = await client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(oldToken.status, 401, 'the access token of a session the reset ended');
    const refreshed = await client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: user.refreshToken },
    });
    assert.equal(refreshed.status, 401, 'the old session’s refresh token is revoked');
    const oldLogin = await client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(oldLogin.status, 401);
    const login = await client.call('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: 'a brand new passphrase' },
    });
    assert.equal(login.status, 200);
    const profile = await client.call('GET', '/api/v1/user', { token: login.body.token });
    assert.equal(profile.body.emails[0].verified, true, 'following a reset link proves the address');
  });

  it('one mail a minute per address (the rest answered alike, unsent); a replaced or expired token is refused', async () => {
    const user = await client.signup(freshEmail());
    const limitedBefore = await settledCount('password-reset', 'recipient_limited');
    for (let i = 0; i < 3; i++) {
      const answer = await client.call('POST', '/api/v1/auth/password-reset', {
        body: { email: user.email },
      });
      assert.equal(answer.status, 202);
    }
    assert.equal(await settledCount('password-reset', 'recipient_limited'), limitedBefore + 2);
    const first = linkOf(await waitForMail(receiver.received, user.email));

    clock.advance(61);
    await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
    const second = linkOf(await waitForMail(receiver.received, user.email, 2));
    assert.notEqual(second.token, first.token);
    const replaced = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: first.token, newPassword: 'a brand new passphrase' },
    });
    assert.equal(replaced.status, 400);
    assert.equal(replaced.body.code, 'INVALID_TOKEN');

    clock.advance(31 * 60);
    const expired = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: second.token, newPassword: 'a brand new passphrase' },
    });
    assert.equal(expired.status, 400);
    assert.equal(expired.body.code, 'INVALID_TOKEN');
    assert.equal(mailsTo(receiver.received, user.email).length, 2);
  });

  it('five mails an hour per address, then none until the hour has passed', async () => {
    const user = await client.signup(freshEmail());
    for (let i = 0; i < 7; i++) {
      await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
      clock.advance(61);
    }
    await waitForMail(receiver.received, user.email, 5);
    const queuedBefore = await settledCount('password-reset', 'queued');
    clock.advance(15 * 60);
    await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
    await waitForMail(receiver.received, user.email, 6);
    assert.ok((await settledCount('password-reset', 'queued')) > queuedBefore);
  });

  it('a client address past its hourly allowance gets 429 with Retry-After, for known and unknown addresses alike', async () => {
    const from = '127.0.0.9';
    let refused: Awaited<ReturnType<ApiClient['call']>> | undefined;
    for (let i = 0; i < 501 && !refused; i++) {
      const answer = await client.call('POST', '/api/v1/auth/password-reset', {
        body: { email: freshEmail() },
        localAddress: from,
      });
      if (answer.status === 429) refused = answer;
      else assert.equal(answer.status, 202);
    }
    assert.ok(refused, 'the 501st request is refused');
    assert.equal(refused.body.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });

  it('refuses a malformed address with 400, before any limit', async () => {
    for (const email of ['not-an-address', '', `${'a'.repeat(65)}@example.com`]) {
      const answer = await client.call('POST', '/api/v1/auth/password-reset', { body: { email } });
      assert.equal(answer.status, 400, email);
      assert.equal(answer.body.code, 'VALIDATION_FAILED');
    }
    const missing = await client.call('POST', '/api/v1/auth/password-reset', { body: {} });
    assert.equal(missing.status, 400);
  });

  it('email verification: a mail to the caller, the profile then verified; an already verified address gets none', async () => {
    const user = await client.signup(freshEmail());
    const before = await client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(before.body.emails[0].verified, false);
    const asked = await client.call('POST', '/api/v1/auth/verify-email', { token: user.token });
    assert.equal(asked.status, 202);
    const mail = await waitForMail(receiver.received, user.email);
    assert.match(mail.parsed.subject ?? '', /Confirm your email address/);
    const link = linkOf(mail);
    assert.equal(link.page, `${server.baseUrl}/account/verify-email`);
    const wrongPurpose = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'a brand new passphrase' },
    });
    assert.equal(wrongPurpose.status, 400, 'a verification token resets nothing');
    const confirmed = await client.call('POST', '/api/v1/auth/verify-email/confirm', {
      body: { token: link.token },
    });
    assert.equal(confirmed.status, 204, confirmed.text);
    const afterwards = await client.call('GET', '/api/v1/user', { token: user.token });
    assert.equal(afterwards.body.emails[0].verified, true);

    clock.advance(61);
    const settledBefore = await settledCount('verify-email', 'no_account');
    await client.call('POST', '/api/v1/auth/verify-email', { token: user.token });
    await waitUntil(
      async () => ((await settledCount('verify-email', 'no_account')) > settledBefore ? true : undefined),
      'the request settled',
    );
    assert.equal(mailsTo(receiver.received, user.email).length, 1);
  });

  it('a token is bound to the address it was sent to', async () => {
    const user = await client.signup(freshEmail());
    await client.call('POST', '/api/v1/auth/verify-email', { token: user.token });
    const link = linkOf(await waitForMail(receiver.received, user.email));
    // The account's address changes (an operator edits it) before the link is followed.
    await server.services.database.db
      .updateTable('users')
      .set({ email: 'moved@example.com', email_normalized: `moved-${user.userId}@example.com`.toLowerCase() })
      .where('id', '=', user.userId)
      .execute();
    const refused = await client.call('POST', '/api/v1/auth/verify-email/confirm', {
      body: { token: link.token },
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'INVALID_TOKEN');
  });

  it('magic link: off by default (403); on, a link to the app’s page that signs in once', async () => {
    const user = await client.signup(freshEmail());
    const off = await client.call('POST', '/api/v1/auth/magic-link', { body: { email: user.email } });
    assert.equal(off.status, 403);
    assert.equal(off.body.code, 'ACCESS_DENIED');

    const { projects } = server.services.repositories;
    await projects.changeAllowedOrigins(client.credentials.projectId, {
      add: ['https://app.example'],
      remove: [],
    });
    await setSettings({ magicLink: true, accountLinkUrl: 'https://app.example/auth/{purpose}' });
    const unknown = await client.call('POST', '/api/v1/auth/magic-link', { body: { email: freshEmail() } });
    const asked = await client.call('POST', '/api/v1/auth/magic-link', { body: { email: user.email } });
    assert.equal(asked.status, 202);
    assert.equal(unknown.text, asked.text);
    const link = linkOf(await waitForMail(receiver.received, user.email));
    assert.equal(link.page, 'https://app.example/auth/magic-link');

    const signedIn = await client.call('POST', '/api/v1/auth/magic-link/confirm', {
      body: { token: link.token },
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.body.userId, user.userId);
    assert.ok(signedIn.body.token && signedIn.body.refreshToken);
    const profile = await client.call('GET', '/api/v1/user', { token: signedIn.body.token });
    assert.equal(profile.body.emails[0].verified, true);
    // Its user.login says how the session began (issue 37, item 6).
    const logins = await server.services.repositories.events.search({
      projectId: client.credentials.projectId,
      limit: 1000,
    });
    const methods = logins
      .filter((event) => event.type === 'user.login' && event.data.userId === user.userId)
      .map((event) => event.data.method)
      .reverse();
    assert.deepEqual(methods, ['password', 'magic-link']);
    const again = await client.call('POST', '/api/v1/auth/magic-link/confirm', {
      body: { token: link.token },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'INVALID_TOKEN');

    // An origin the project no longer allows: the mail links Coffer's own page instead.
    await projects.changeAllowedOrigins(client.credentials.projectId, {
      add: [],
      remove: ['https://app.example'],
    });
    await setSettings({});
    clock.advance(61);
    await client.call('POST', '/api/v1/auth/magic-link', { body: { email: user.email } });
    const fallback = linkOf(await waitForMail(receiver.received, user.email, 2));
    assert.equal(fallback.page, `${server.baseUrl}/account/magic-link`);
    await setSettings({ magicLink: false, accountLinkUrl: null });
  });

  it('requireVerifiedEmail: signup answers and mails the link; login, refresh and bearer calls are 403 EMAIL_NOT_VERIFIED until it is followed', async () => {
    await setSettings({ requireVerifiedEmail: true });
    try {
      const email = freshEmail();
      const signup = await client.call('POST', '/api/v1/auth/signup', {
        body: { email, password: 'correct horse battery' },
      });
      assert.equal(signup.status, 200);
      const link = linkOf(await waitForMail(receiver.received, email));
      // The signup's session serves nothing but asking for the mail again until the address is verified.
      const profile = await client.call('GET', '/api/v1/user', { token: signup.body.token });
      assert.equal(profile.status, 403);
      assert.equal(profile.body.code, 'EMAIL_NOT_VERIFIED');
      const refresh = await client.call('POST', '/api/v1/auth/refresh', {
        body: { refreshToken: signup.body.refreshToken },
      });
      assert.equal(refresh.status, 403);
      assert.equal(refresh.body.code, 'EMAIL_NOT_VERIFIED');
      // The signup's mail counts toward the address's one mail a minute (issue 35, item 9).
      const limitedBefore = await settledCount('verify-email', 'recipient_limited');
      const tooSoon = await client.call('POST', '/api/v1/auth/verify-email', { token: signup.body.token });
      assert.equal(tooSoon.status, 202);
      assert.equal(await settledCount('verify-email', 'recipient_limited'), limitedBefore + 1);
      clock.advance(61);
      const resend = await client.call('POST', '/api/v1/auth/verify-email', { token: signup.body.token });
      assert.equal(resend.status, 202);
      const resent = linkOf(await waitForMail(receiver.received, email, 2));
      assert.equal(mailsTo(receiver.received, email).length, 2, 'no mail went for the request too soon');
      const replaced = await client.call('POST', '/api/v1/auth/verify-email/confirm', {
        body: { token: link.token },
      });
      assert.equal(replaced.status, 400, 'the newer mail’s token replaced the signup mail’s');
      const refused = await client.call('POST', '/api/v1/auth/login', {
        body: { email, password: 'correct horse battery' },
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'EMAIL_NOT_VERIFIED');
      const wrongPassword = await client.call('POST', '/api/v1/auth/login', {
        body: { email, password: 'not the password at all' },
      });
      assert.equal(wrongPassword.status, 401, 'a wrong password learns nothing of the address');
      const confirmed = await client.call('POST', '/api/v1/auth/verify-email/confirm', {
        body: { token: resent.token },
      });
      assert.equal(confirmed.status, 204);
      const login = await client.call('POST', '/api/v1/auth/login', {
        body: { email, password: 'correct horse battery' },
      });
      assert.equal(login.status, 200);
      const verified = await client.call('GET', '/api/v1/user', { token: signup.body.token });
      assert.equal(verified.status, 200, 'the signup session works once the address is verified');
    } finally {
      await setSettings({ requireVerifiedEmail: false });
    }
  });

  it('an operator sends a reset mail from the console API path, without the client limits', async () => {
    const user = await client.signup(freshEmail());
    const { accountMail, repositories } = server.services;
    const project = await repositories.projects.findById(client.credentials.projectId);
    const account = await repositories.users.findById(project!.id, user.userId);
    await accountMail.sendPasswordReset(project!, account!);
    const link = linkOf(await waitForMail(receiver.received, user.email));
    const confirmed = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'an operator sent this' },
    });
    assert.equal(confirmed.status, 204);
  });
  it('a reset mail asked for while the SMTP server is down arrives once it is back', async () => {
    const user = await client.signup(freshEmail());
    const port = receiver.port;
    await receiver.close();
    const failuresBefore = await counterValue(server.baseUrl, 'coffer_mail_attempt_failures_total');
    const asked = await client.call('POST', '/api/v1/auth/password-reset', { body: { email: user.email } });
    assert.equal(asked.status, 202);
    await waitUntil(
      async () =>
        (await counterValue(server.baseUrl, 'coffer_mail_attempt_failures_total')) > failuresBefore
          ? true
          : undefined,
      'a failed attempt while the SMTP server is down',
    );
    receiver = await startSmtpReceiver({ port });
    clock.advance(15); // past the first retry (COFFER_MAIL_RETRY_SECONDS starts at 10, ±20%)
    const link = linkOf(await waitForMail(receiver.received, user.email));
    const confirmed = await client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'after the outage' },
    });
    assert.equal(confirmed.status, 204);
  });
});
