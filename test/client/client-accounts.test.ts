import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CofferClient, type CofferError, tokenFromLink } from '../../packages/client/src/index.ts';
import { startMailDelivery } from '../../src/start-mail-delivery.ts';
import { linkOf, waitForMail } from '../accounts/account-mail-support.ts';
import { startSmtpReceiver } from '../mail/smtp-receiver.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

const quiet = { info() {}, warn() {}, error() {} };

/** Issue 23: `client.account` drives the email flows; the mails come through a real SMTP server. */
describe('@coffer/client accounts by email', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let delivery: { stop(): Promise<void> };
  // Moved past the one-mail-a-minute limit of an address.
  const clock = new ManualClock();
  const newClient = () =>
    new CofferClient({
      baseUrl: server.baseUrl,
      appId: server.credentials.appId,
      appSecret: server.credentials.appSecret,
    });

  before(async () => {
    receiver = await startSmtpReceiver();
    server = await startTestServer(
      {},
      { COFFER_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`, COFFER_MAIL_DELIVERY_INTERVAL_MS: '20' },
      { clock },
    );
    delivery = startMailDelivery(server.services, quiet);
  });
  after(async () => {
    await delivery?.stop();
    await server?.stop();
    await receiver?.close();
  });

  it('verifies the address, resets the password (ending the session) and reads tokens from links', async () => {
    const email = `client-${Date.now()}@example.com`;
    const coffer = newClient();
    await coffer.signup({ email, password: 'correct horse battery' });
    await coffer.account.requestEmailVerification();
    const verification = linkOf(await waitForMail(receiver.received, email));
    assert.equal(tokenFromLink(verification.url), verification.token);
    assert.equal(tokenFromLink(`#token=${verification.token}`), verification.token);
    assert.equal(tokenFromLink('https://app.example/page'), undefined);
    await coffer.account.confirmEmailVerification(verification.token);
    assert.equal((await coffer.profile()).emails[0]?.verified, true);

    clock.advance(61);
    const stranger = newClient();
    await stranger.account.requestPasswordReset(email);
    await stranger.account.requestPasswordReset('nobody-here@example.com');
    const reset = linkOf(await waitForMail(receiver.received, email, 2));
    await stranger.account.confirmPasswordReset(reset.token, 'chosen through the client');
    await assert.rejects(
      stranger.account.confirmPasswordReset(reset.token, 'chosen through the client'),
      (error: CofferError) => error.status === 400 && error.code === 'INVALID_TOKEN',
    );
    await assert.rejects(coffer.refresh(), (error: CofferError) => error.code === 'INVALID_REFRESH_TOKEN');
    const session = await newClient().login({ email, password: 'chosen through the client' });
    assert.ok(session.token);
  });

  it('changes the address (this session stays), undoes the change from the old address, and leaves', async () => {
    const email = `client-move-${Date.now()}@example.com`;
    const newEmail = `client-moved-${Date.now()}@example.com`;
    const coffer = newClient();
    await coffer.signup({ email, password: 'correct horse battery' });
    await coffer.account.requestEmailChange(newEmail, { password: 'correct horse battery' });
    const change = linkOf(await waitForMail(receiver.received, newEmail));
    await coffer.account.confirmEmailChange(change.token);
    assert.equal((await coffer.profile()).emails[0]?.email, newEmail, 'the confirming session goes on');

    const back = linkOf(await waitForMail(receiver.received, email));
    await newClient().account.revertEmailChange(back.token);
    await assert.rejects(coffer.profile(), (error: CofferError) => error.status === 401);

    const again = newClient();
    await again.login({ email, password: 'correct horse battery' });
    await again.account.deleteAccount();
    assert.equal(again.session, undefined, 'the client is logged out');
    await assert.rejects(
      newClient().login({ email, password: 'correct horse battery' }),
      (error: CofferError) => error.code === 'INVALID_LOGIN',
    );
  });
});
