import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CofferClient } from '../../packages/client/src/index.ts';
import { createOperator } from '../../src/domain/operators/operator-accounts.ts';
import type { ApiClient } from '../support/api-client.ts';
import {
  openPage,
  operator,
  signIn as signInToConsole,
  skipWithoutChromium,
} from '../support/console-browser.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { PasskeyBrowser, startAppPage } from '../support/passkey-browser.ts';

// Issue 41: real passkeys, made and used by Chromium's virtual authenticator (DevTools protocol)
// through the stock @simplewebauthn/browser, on an app page of an allowed origin.
describe('passkeys in Chromium', { skip: skipWithoutChromium }, () => {
  let server: TestServer;
  let api: ApiClient;
  let browser: PasskeyBrowser;
  let app: Awaited<ReturnType<typeof startAppPage>>;
  let elsewhere: Awaited<ReturnType<typeof startAppPage>>;
  let alice: { token: string; userId: string; email: string; password: string };
  let passkeyId: string;
  const clock = new ManualClock();

  before(async () => {
    server = await startTestServer({}, {}, { clock });
    app = await startAppPage();
    elsewhere = await startAppPage();
    // The RP ID is the host of the first allowed origin: localhost.
    api = await server.createProject('passkeys', [app.origin]);
    browser = await PasskeyBrowser.launch();
    alice = await api.signup();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await elsewhere?.close();
    await server?.stop();
  });

  const signInOptions = async (body: unknown) => {
    const options = await api.call('POST', '/api/v1/auth/passkey/options', { body });
    assert.equal(options.status, 200, options.text);
    return options.body;
  };
  const signIn = (response: unknown) => api.call('POST', '/api/v1/auth/passkey', { body: { response } });

  it('registers a passkey and lists it', async () => {
    const options = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    assert.equal(options.status, 200, options.text);
    assert.equal(options.body.rp.id, 'localhost');
    assert.deepEqual(options.body.excludeCredentials, []);
    assert.equal(options.body.authenticatorSelection.residentKey, 'preferred');
    assert.equal(options.body.authenticatorSelection.userVerification, 'preferred');
    // The user handle is random bytes, never the address.
    const handle = Buffer.from(options.body.user.id, 'base64url').toString('latin1');
    assert.ok(!handle.includes(alice.email) && !handle.includes(alice.userId));

    const response = await browser.register(app.origin, options.body);
    const added = await api.call('POST', '/api/v1/user/passkeys', {
      token: alice.token,
      body: { response, name: 'Laptop' },
    });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.name, 'Laptop');
    passkeyId = added.body.id;

    const listed = await api.call('GET', '/api/v1/user/passkeys', { token: alice.token });
    assert.deepEqual(listed.body, [
      { id: passkeyId, name: 'Laptop', createdAt: added.body.createdAt, lastUsedAt: null },
    ]);

    // The same answer again: its challenge was used.
    const again = await api.call('POST', '/api/v1/user/passkeys', { token: alice.token, body: { response } });
    assert.equal(again.status, 400, again.text);
    assert.equal(again.body.code, 'VALIDATION_FAILED');

    // The next options exclude it and keep the user's handle.
    const next = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    assert.deepEqual(
      next.body.excludeCredentials.map((one: { id: string }) => one.id),
      [response.id],
    );
    assert.equal(next.body.user.id, options.body.user.id);
  });

  it('signs in with the email, and the session works', async () => {
    const options = await signInOptions({ email: alice.email });
    assert.equal(options.rpId, 'localhost');
    assert.equal(options.allowCredentials.length, 1);
    const response = await browser.authenticate(app.origin, options);
    const signedIn = await signIn(response);
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.body.userId, alice.userId);
    assert.ok(signedIn.body.refreshToken);
    const profile = await api.call('GET', '/api/v1/user', { token: signedIn.body.token });
    assert.equal(profile.status, 200, profile.text);
    assert.equal(profile.body._id, alice.userId);
    const listed = await api.call('GET', '/api/v1/user/passkeys', { token: signedIn.body.token });
    assert.ok(listed.body[0].lastUsedAt, 'the use is recorded');

    // The same assertion again: its challenge was taken.
    const replayed = await signIn(response);
    assert.equal(replayed.status, 401, replayed.text);
    assert.equal(replayed.body.code, 'INVALID_LOGIN');
    // A new assertion over the same challenge (a higher counter, a fresh signature): still used.
    const reused = await signIn(await browser.authenticate(app.origin, options));
    assert.equal(reused.status, 401, reused.text);
    assert.equal(reused.body.code, 'INVALID_LOGIN');
  });

  it('signs in with a discoverable passkey, no email given', async () => {
    const options = await signInOptions({});
    assert.ok(options.allowCredentials === undefined || options.allowCredentials.length === 0);
    const response = await browser.authenticate(app.origin, options);
    assert.equal(typeof (response.response as { userHandle?: string }).userHandle, 'string');
    const signedIn = await signIn(response);
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.body.userId, alice.userId);
    const profile = await api.call('GET', '/api/v1/user', { token: signedIn.body.token });
    assert.equal(profile.status, 200);
  });

  it('under requireMfa, a password sign-in names the passkey as its second step, which a passkey sign-in passes', async () => {
    const { projects } = server.services.repositories;
    const setRequireMfa = async (on: boolean) => {
      const project = await projects.findById(api.credentials.projectId);
      await projects.updateSettings(project!.id, { ...project!.settings, requireMfa: on });
    };
    const login = () =>
      api.call('POST', '/api/v1/auth/login', { body: { email: alice.email, password: alice.password } });
    /** Logs in until the server's view of the project answers as `wanted` says (settings are cached). */
    const loginUntil = async (wanted: (status: number) => boolean) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const answer = await login();
        if (wanted(answer.status) || Date.now() > deadline) return answer;
        await sleep(50);
      }
    };
    await setRequireMfa(true);
    try {
      const answer = await loginUntil((status) => status !== 200);
      // Not MFA_ENROLMENT_REQUIRED: her passkey is a factor, and a passkey sign-in is the way through.
      assert.equal(answer.status, 401, answer.text);
      assert.equal(answer.body.code, 'MFA_REQUIRED');
      assert.deepEqual(answer.body.methods, ['passkey']);
      const signedIn = await signIn(
        await browser.authenticate(app.origin, await signInOptions({ email: alice.email })),
      );
      assert.equal(signedIn.status, 200, signedIn.text);
      assert.equal(signedIn.body.userId, alice.userId);
    } finally {
      await setRequireMfa(false);
      assert.equal((await loginUntil((status) => status === 200)).status, 200);
    }
  });

  it('refuses an assertion made on an origin the project does not allow', async () => {
    const options = await signInOptions({});
    const response = await browser.authenticate(elsewhere.origin, options);
    const refused = await signIn(response);
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.body.code, 'INVALID_LOGIN');
  });

  it('refuses a challenge handed out for another account', async () => {
    const bob = await api.signup();
    const options = await signInOptions({ email: bob.email });
    // The browser is told to use any passkey: alice's signs the challenge meant for bob.
    const response = await browser.authenticate(app.origin, { ...options, allowCredentials: [] });
    const refused = await signIn(response);
    assert.equal(refused.status, 401, refused.text);
  });

  it('no longer signs in with a removed passkey', async () => {
    const removed = await api.call('DELETE', `/api/v1/user/passkeys/${passkeyId}`, { token: alice.token });
    assert.equal(removed.status, 204, removed.text);
    const gone = await api.call('DELETE', `/api/v1/user/passkeys/${passkeyId}`, { token: alice.token });
    assert.equal(gone.status, 404);
    const listed = await api.call('GET', '/api/v1/user/passkeys', { token: alice.token });
    assert.deepEqual(listed.body, []);
    // The authenticator still holds it (a discoverable credential): the server refuses it.
    const response = await browser.authenticate(app.origin, await signInOptions({}));
    const refused = await signIn(response);
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.body.code, 'INVALID_LOGIN');
  });

  it('runs through @coffer/client, the app calling @simplewebauthn/browser', async () => {
    // A client as a page of the app's origin holds it: an app id, no secret.
    const pageClient = () =>
      new CofferClient({
        baseUrl: server.baseUrl,
        appId: api.credentials.appId,
        fetch: (url, init) =>
          fetch(url, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), origin: app.origin },
          }),
      });
    const client = pageClient();
    await client.login({ email: alice.email, password: 'correct horse battery' });
    const options = await client.passkeys.registrationOptions();
    const added = await client.passkeys.register(await browser.register(app.origin, options), 'Phone');
    assert.equal(added.name, 'Phone');
    assert.deepEqual(
      (await client.passkeys.list()).map((one) => one.id),
      [added.id],
    );

    const other = pageClient();
    const request = await other.passkeys.signInOptions(alice.email);
    const session = await other.passkeys.signIn(await browser.authenticate(app.origin, request));
    assert.equal(session.userId, alice.userId);
    assert.equal((await other.profile())._id, alice.userId);
    await other.passkeys.remove(added.id);
    assert.deepEqual(await client.passkeys.list(), []);
  });

  it("shows an operator the user's passkeys on the console's user page, and removes one", async () => {
    const options = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    const response = await browser.register(app.origin, options.body);
    const added = await api.call('POST', '/api/v1/user/passkeys', {
      token: alice.token,
      body: { response, name: 'Desk' },
    });
    assert.equal(added.status, 201, added.text);

    await createOperator(server.services.repositories.operators, operator, new Date());
    const { page, problems } = await openPage(browser.browser);
    try {
      await signInToConsole(page, server.baseUrl);
      await page.goto(
        `${server.baseUrl}/console#/projects/${api.credentials.projectId}/users/${alice.userId}`,
      );
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByRole('cell', { name: 'Desk', exact: true }).waitFor();
      await passkeys.getByRole('button', { name: 'Remove the passkey Desk' }).click();
      await passkeys.getByRole('status').filter({ hasText: 'Removed the passkey "Desk".' }).waitFor();
      await passkeys.getByText('None.').waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
    const listed = await api.call('GET', '/api/v1/user/passkeys', { token: alice.token });
    assert.deepEqual(listed.body, []);
  });

  // Last: the server's clock moves on (nothing after this runs on the real time).
  it('refuses a challenge older than 5 minutes', async () => {
    const options = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    const registered = await browser.register(app.origin, options.body);
    const added = await api.call('POST', '/api/v1/user/passkeys', {
      token: alice.token,
      body: { response: registered },
    });
    assert.equal(added.status, 201, added.text);

    const late = await browser.authenticate(app.origin, await signInOptions({ email: alice.email }));
    clock.advance(5 * 60 + 1);
    const refused = await signIn(late);
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.body.code, 'INVALID_LOGIN');
    const inTime = await signIn(
      await browser.authenticate(app.origin, await signInOptions({ email: alice.email })),
    );
    assert.equal(inTime.status, 200, inTime.text);
  });
});
