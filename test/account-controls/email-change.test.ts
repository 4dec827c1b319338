import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  counterValue,
  linkOf,
  mailsTo,
  startMailingServer,
  waitForMail,
} from '../accounts/account-mail-support.ts';
import type { ApiClient } from '../support/api-client.ts';
import type { TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { currentStackName } from '../support/test-stack.ts';
import { waitUntil } from '../support/webhook-receiver.ts';

/**
 * Issue 41, item 3: changing an account's address, followed from the mails a real SMTP server
 * (smtp-server) received, over HTTP to the real app: the link to the new address switches it
 * and ends the other sessions; the link to the old one switches back and ends them all.
 */
describe(`email change (${currentStackName()} stack)`, () => {
  const clock = new ManualClock();
  let server: TestServer;
  let client: ApiClient;
  let receiver: Awaited<ReturnType<typeof startMailingServer>>['receiver'];
  let world: Awaited<ReturnType<typeof startMailingServer>> | undefined;
  let counter = 0;
  const freshEmail = () => `change-${Date.now().toString(36)}-${++counter}@example.com`;

  before(async () => {
    world = await startMailingServer(clock);
    ({ server, receiver } = world);
    client = server.client;
  });
  after(() => world?.stop());

  const profile = (token: string) => client.call('GET', '/api/v1/user', { token });
  const login = (email: string, password: string) =>
    client.call('POST', '/api/v1/auth/login', { body: { email, password } });
  const requestChange = (token: string, body: Record<string, string>) =>
    client.call('POST', '/api/v1/user/email', { token, body });
  const eventsOf = async (userId: string) => {
    const { projectId } = client.credentials;
    const events = await server.services.repositories.events.search({ projectId, limit: 1000 });
    return events
      .filter((event) => event.type === 'user.email_changed' && event.data.userId === userId)
      .reverse();
  };
  /** Waits until every email change asked so far with this outcome is settled. */
  const settled = (outcome: string) =>
    counterValue(
      server.baseUrl,
      `coffer_account_mail_requests_total{purpose="email-change",outcome="${outcome}"}`,
    );

  it('change → confirm → the new address signs in, other sessions end; the old address’s link restores it and ends every session; tokens are single use', async () => {
    const user = await client.signup(freshEmail());
    const other = await login(user.email, user.password);
    assert.equal(other.status, 200);
    const newEmail = freshEmail();

    const wrong = await requestChange(user.token, { newEmail, password: 'not the password' });
    assert.equal(wrong.status, 401, wrong.text);
    assert.equal(wrong.body.code, 'INVALID_LOGIN');
    const asked = await requestChange(user.token, { newEmail, password: user.password });
    assert.equal(asked.status, 202, asked.text);
    assert.deepEqual(asked.body, {});

    const mail = await waitForMail(receiver.received, newEmail);
    assert.match(mail.parsed.subject ?? '', /Confirm your new email address/);
    const link = linkOf(mail);
    assert.equal(link.page, `${server.baseUrl}/account/change-email`);
    const page = await fetch(link.page);
    assert.equal(page.status, 200, 'a mail scanner fetching the page spends nothing');
    assert.equal((await profile(user.token)).body.emails[0].email, user.email, 'nothing changed yet');

    const confirmed = await client.call('POST', '/api/v1/user/email/confirm', {
      token: user.token,
      body: { token: link.token },
    });
    assert.equal(confirmed.status, 204, confirmed.text);
    const reused = await client.call('POST', '/api/v1/user/email/confirm', { body: { token: link.token } });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.code, 'INVALID_TOKEN');

    const changed = await profile(user.token);
    assert.equal(changed.status, 200, 'the confirming session goes on');
    assert.deepEqual(changed.body.emails, [{ email: newEmail, primary: true, verified: true }]);
    assert.equal((await profile(other.body.token)).status, 401, 'every other session ended');
    assert.equal((await login(user.email, user.password)).status, 401, 'the old address signs in no more');
    const byNew = await login(newEmail, user.password);
    assert.equal(byNew.status, 200, byNew.text);
    assert.equal(byNew.body.userId, user.userId);

    const [event] = await eventsOf(user.userId);
    assert.equal(event?.data.previousEmail, user.email);
    assert.equal(event?.data.email, newEmail);
    assert.equal(event?.data.reverted, false);
    assert.ok(!JSON.stringify(event).includes(link.token), 'no token in the event');

    const notice = await waitForMail(receiver.received, user.email);
    assert.match(notice.parsed.text ?? '', new RegExp(`to ${newEmail.replaceAll('.', '\\.')}`));
    const back = linkOf(notice);
    assert.equal(back.page, `${server.baseUrl}/account/revert-email`);
    const reverted = await client.call('POST', '/api/v1/user/email/revert', { body: { token: back.token } });
    assert.equal(reverted.status, 204, reverted.text);
    for (const token of [user.token, byNew.body.token])
      assert.equal((await profile(token)).status, 401, 'a revert ends every session');
    assert.equal((await login(newEmail, user.password)).status, 401);
    const restored = await login(user.email, user.password);
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await profile(restored.body.token)).body.emails[0].email, user.email);
    const again = await client.call('POST', '/api/v1/user/email/revert', { body: { token: back.token } });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'INVALID_TOKEN');
    assert.equal((await eventsOf(user.userId))[1]?.data.reverted, true);
  });

  it('no oracle: a taken address answers the same 202 and gets no mail; taken between request and confirm, or the old one taken before a revert: 409 EMAIL_TAKEN', async () => {
    const user = await client.signup(freshEmail());
    const holder = await client.signup(freshEmail());
    const free = freshEmail();
    const noneBefore = await settled('no_account');
    const toTaken = await requestChange(user.token, { newEmail: holder.email, password: user.password });
    const toFree = await requestChange(user.token, { newEmail: free, password: user.password });
    assert.equal(toTaken.status, 202);
    assert.equal(toTaken.text, toFree.text);
    assert.equal(toTaken.headers.get('content-type'), toFree.headers.get('content-type'));
    await waitUntil(
      async () => ((await settled('no_account')) > noneBefore ? true : undefined),
      'the taken address settled',
    );
    const { token } = linkOf(await waitForMail(receiver.received, free));
    assert.equal(
      mailsTo(receiver.received, holder.email).length,
      0,
      'the holder of a taken address gets nothing',
    );
    // The account mails' per-recipient limit: a second mail to the address within the minute is not sent.
    const limitedBefore = await settled('recipient_limited');
    const twice = await requestChange(user.token, { newEmail: free, password: user.password });
    assert.equal(twice.text, toFree.text);
    assert.equal(await settled('recipient_limited'), limitedBefore + 1);

    // Someone takes the free address before the link is opened.
    const taker = await client.signup(free);
    const clash = await client.call('POST', '/api/v1/user/email/confirm', { body: { token } });
    assert.equal(clash.status, 409, clash.text);
    assert.equal(clash.body.code, 'EMAIL_TAKEN');
    assert.equal((await profile(user.token)).body.emails[0].email, user.email);
    const removed = await client.call('DELETE', '/api/v1/user', { token: taker.token });
    assert.equal(removed.status, 204, removed.text);
    const late = await client.call('POST', '/api/v1/user/email/confirm', { body: { token } });
    assert.equal(late.status, 204, 'the refused token stayed unspent');

    // The old address is taken by someone else while its revert waits.
    const back = linkOf(await waitForMail(receiver.received, user.email));
    const squatter = await client.signup(user.email);
    const refused = await client.call('POST', '/api/v1/user/email/revert', { body: { token: back.token } });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'EMAIL_TAKEN');
    assert.ok(squatter.userId);
  });

  it('a second change while a revert is pending: the first address’s link still restores it (through Coffer’s own page); an older session needs the password', async () => {
    const user = await client.signup(freshEmail());
    const second = freshEmail();
    const third = freshEmail();
    await requestChange(user.token, { newEmail: second, password: user.password });
    const first = linkOf(await waitForMail(receiver.received, second));
    const viaPage = await fetch(first.page, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: first.token }),
    });
    assert.equal(viaPage.status, 204, 'Coffer’s page confirms without app credentials');
    const way = linkOf(await waitForMail(receiver.received, user.email));
    assert.equal((await profile(user.token)).status, 401, 'no bearer on the confirm: every session ended');

    const session = await login(second, user.password);
    clock.advance(6 * 60);
    const bare = await requestChange(session.body.token, { newEmail: third });
    assert.equal(bare.status, 403, bare.text);
    assert.equal(bare.body.code, 'REAUTHENTICATION_REQUIRED');
    await requestChange(session.body.token, { newEmail: third, password: user.password });
    const next = linkOf(await waitForMail(receiver.received, third));
    const confirmed = await client.call('POST', '/api/v1/user/email/confirm', {
      token: session.body.token,
      body: { token: next.token },
    });
    assert.equal(confirmed.status, 204, confirmed.text);
    assert.equal((await profile(session.body.token)).body.emails[0].email, third);
    // The link of the first change still works: the second change did not replace it.
    const restored = await fetch(way.page, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: way.token }),
    });
    assert.equal(restored.status, 204);
    assert.equal((await profile(session.body.token)).status, 401);
    assert.equal((await login(user.email, user.password)).status, 200);
    assert.equal((await login(third, user.password)).status, 401);
  });
});
