import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { linkOf, waitForMail } from '../accounts/account-mail-support.ts';
import { startSmtpReceiver } from '../mail/smtp-receiver.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { currentStackName } from '../support/test-stack.ts';

/** Issue 23: an operator sends a user a password reset mail from the console; the user follows it. */
describe(`console: a reset mail for a user (${currentStackName()} stack)`, () => {
  let coffer: CofferProcess;
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let call: ConsoleCall;
  before(async () => {
    receiver = await startSmtpReceiver();
    coffer = await startCofferProcess({
      env: { COFFER_SMTP_URL: `smtp://127.0.0.1:${receiver.port}`, COFFER_MAIL_DELIVERY_INTERVAL_MS: '20' },
    });
    call = await signInToConsole(coffer);
  });
  after(async () => {
    await coffer?.stop();
    await receiver?.close();
  });

  it('sends the mail, whose link sets the password; an unknown user is 404', async () => {
    const user = await coffer.client.signup(`console-reset-${Date.now()}@example.com`);
    const path = `/projects/${coffer.credentials.projectId}/users`;
    const sent = await call('POST', `${path}/${user.userId}/reset-mail`);
    assert.equal(sent.status, 202);
    assert.deepEqual(sent.body, { to: user.email });
    const link = linkOf(await waitForMail(receiver.received, user.email));
    const confirmed = await coffer.client.call('POST', '/api/v1/auth/password-reset/confirm', {
      body: { token: link.token, newPassword: 'set from an operator mail' },
    });
    assert.equal(confirmed.status, 204);
    const unknown = await call('POST', `${path}/nobody/reset-mail`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'USER_NOT_FOUND');
  });
});
