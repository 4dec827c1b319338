import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

type Guest = { token: string; refreshToken: string; userId: string };

/** Issue 37, item 5: guests become members, by a password or by linking a provider. */
describe('an anonymous account becomes a member', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  let client: ApiClient;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' });
    idp = await startTestIdp({ redirectUris: [`${server.baseUrl}/api/v1/oauth/corp/callback`] });
    client = await server.createProject('convert');
    await configure(client, [
      'anonymousSignup=true',
      `oauth.corp.issuer=${idp.issuer}`,
      `oauth.corp.clientId=${idp.clientId}`,
      `oauth.corp.clientSecret=${idp.clientSecret}`,
    ]);
  });
  after(async () => {
    await server?.stop();
    await idp?.stop();
  });

  /** Before the project's first call: no process has it cached yet. */
  async function configure(target: ApiClient, assignments: string[]) {
    const { projects } = server.services.repositories;
    const project = (await projects.findById(target.credentials.projectId))!;
    await projects.updateSettings(project.id, assignProjectSettings(project, assignments));
  }

  const guestOf = async (target = client): Promise<Guest> => {
    const answer = await target.call('POST', '/api/v1/auth/signup/anonymous');
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  const convert = (token: string | undefined, body: unknown, target = client) =>
    target.call('POST', '/api/v1/auth/signup/anonymous/convert', { token, body });
  const profileOf = async (token: string) => {
    const profile = await client.call('GET', '/api/v1/user', { token });
    assert.equal(profile.status, 200, profile.text);
    return profile.body;
  };
  const expectCode = (response: ApiResponse, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.equal(response.body.code, code, response.text);
    assert.equal(typeof response.body.message, 'string');
  };
  const eventsOf = async (userId: string, type: string) => {
    const { projectId } = client.credentials;
    const events = await server.services.repositories.events.search({ projectId, limit: 1000 });
    return events.filter((event) => event.type === type && event.data.userId === userId).reverse();
  };
  const signInWithProvider = async (login: string, token?: string) => {
    const state = randomUUID() + randomUUID();
    const url = `${server.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({
      state,
      sb_app_id: client.credentials.appId,
      sb_app_secret: client.credentials.appSecret,
    })}`;
    const page = await signInThroughIdp(url, login);
    assert.equal(page.status, 200, await page.clone().text());
    return client.call('GET', `/api/v1/oauth/corp/token?state=${encodeURIComponent(state)}`, { token });
  };

  it('by a password: same userId, its files and shares kept, role user, the guest sessions ended', async () => {
    const guest = await guestOf();
    const friend = await client.signup();
    const mine = await client.uploadFile(guest.token, 'guest/notes.txt', 'the guest wrote this');
    const shared = await client.call('POST', `/api/v1/file/${mine._id}/acl/user/${friend.userId}`, {
      token: guest.token,
    });
    assert.equal(shared.status, 200, shared.text);
    const theirs = await client.uploadFile(friend.token, 'friend/for-guest.txt', 'for the guest');
    const given = await client.call('POST', `/api/v1/file/${theirs._id}/acl/user/${guest.userId}`, {
      token: friend.token,
    });
    assert.equal(given.status, 200, given.text);

    const email = `member-${randomUUID()}@example.com`;
    const password = 'a member now, at last';
    const converted = await convert(guest.token, { email, password });
    assert.equal(converted.status, 200, converted.text);
    assert.equal(converted.body.userId, guest.userId, 'the same account');
    assert.ok(converted.body.token && converted.body.refreshToken && converted.body.expires);
    assert.notEqual(converted.body.token, guest.token);

    // The guest's session ended with the change: its tokens open nothing.
    expectCode(await client.call('GET', '/api/v1/user', { token: guest.token }), 401, 'INVALID_TOKEN');
    const stale = await client.call('POST', '/api/v1/auth/refresh', {
      body: { refreshToken: guest.refreshToken },
    });
    expectCode(stale, 401, 'INVALID_REFRESH_TOKEN');

    const login = await client.call('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.userId, guest.userId);
    const profile = await profileOf(login.body.token);
    assert.equal(profile.role, 'user');
    assert.deepEqual(profile.emails, [{ email, primary: true, verified: false }]);

    const listed = await client.call('GET', '/api/v1/file', { token: login.body.token });
    assert.equal(listed.status, 200, listed.text);
    const ids = listed.body.docs.map((file: { _id: string }) => file._id);
    assert.ok(ids.includes(mine._id), 'its own file');
    assert.ok(ids.includes(theirs._id), 'the file shared with it');
    const read = await client.call('GET', `/api/v1/file/${theirs._id}`, { token: login.body.token });
    assert.equal(read.status, 200, read.text);
    const friendReads = await client.call('GET', `/api/v1/file/${mine._id}`, { token: friend.token });
    assert.equal(friendReads.status, 200, 'its share still stands');

    const [event] = await eventsOf(guest.userId, 'user.converted');
    assert.deepEqual(
      { ...event?.data, actor: event?.actor.id },
      { userId: guest.userId, role: 'user', from: 'anonymous', method: 'password', actor: guest.userId },
    );
    assert.ok(!JSON.stringify(event).includes(password), 'no password in the event');
    const logins = (await eventsOf(guest.userId, 'user.login')).map((one) => one.data.method);
    assert.deepEqual(logins, ['anonymous', 'password', 'password'], 'signup, conversion, login');
  });

  it('refuses members, weak passwords, taken or reserved addresses and closed signup, in the error shape', async () => {
    const member = await client.signup();
    expectCode(
      await convert(member.token, { email: `x-${randomUUID()}@example.com`, password: 'long enough pass' }),
      403,
      'ACCESS_DENIED',
    );
    expectCode(
      await convert(undefined, { email: 'a@example.com', password: 'long enough pass' }),
      401,
      'AUTH_REQUIRED',
    );
    const guest = await guestOf();
    expectCode(
      await convert(guest.token, { email: `y-${randomUUID()}@example.com`, password: 'short' }),
      400,
      'VALIDATION_FAILED',
    );
    expectCode(
      await convert(guest.token, { email: member.email, password: 'long enough pass' }),
      409,
      'EMAIL_TAKEN',
    );
    expectCode(
      await convert(guest.token, { email: 'me@anonymous.invalid', password: 'long enough pass' }),
      400,
      'VALIDATION_FAILED',
    );
    expectCode(
      await convert(guest.token, { email: 'not an address', password: 'long enough pass' }),
      400,
      'VALIDATION_FAILED',
    );
    expectCode(await convert(guest.token, { password: 'long enough pass' }), 400, 'VALIDATION_FAILED');
    const serviceKey = await server.createServiceKey(client.credentials.projectId);
    expectCode(
      await client.call('POST', '/api/v1/auth/signup/anonymous/convert', {
        serviceKey,
        body: { email: `z-${randomUUID()}@example.com`, password: 'long enough pass' },
      }),
      403,
      'ACCESS_DENIED',
    );
    // Every refusal left the guest as it was.
    assert.equal((await profileOf(guest.token)).role, 'anonymous');
    assert.deepEqual(await eventsOf(guest.userId, 'user.converted'), []);

    // Where signup is closed, guests stay guests: only an operator makes members there.
    const closed = await server.createProject('convert-closed');
    await configure(closed, ['anonymousSignup=true', 'signup=closed']);
    const shut = await guestOf(closed);
    const refused = await convert(
      shut.token,
      { email: `c-${randomUUID()}@example.com`, password: 'long enough pass' },
      closed,
    );
    expectCode(refused, 403, 'ACCESS_DENIED');
    assert.match(refused.body.message, /signup is closed/i);
  });

  it('by linking a provider from the guest session: same userId, the provider address verified', async () => {
    const guest = await guestOf();
    const file = await client.uploadFile(guest.token, 'guest/photo.txt', 'kept');
    const linked = await signInWithProvider('gina', guest.token);
    assert.equal(linked.status, 200, linked.text);
    assert.equal(linked.body.userId, guest.userId, 'the guest is converted, not replaced');
    expectCode(await client.call('GET', '/api/v1/user', { token: guest.token }), 401, 'INVALID_TOKEN');

    const profile = await profileOf(linked.body.token);
    assert.equal(profile.role, 'user');
    assert.deepEqual(profile.emails, [{ email: 'gina@example.com', primary: true, verified: true }]);
    assert.deepEqual(profile.providers, [{ id: 'gina', displayName: 'gina', providerName: 'corp' }]);
    const read = await client.call('GET', `/api/v1/file/${file._id}`, { token: linked.body.token });
    assert.equal(read.status, 200, read.text);
    const again = await signInWithProvider('gina');
    assert.equal(again.body.userId, guest.userId, 'the provider now signs the member in');

    const [event] = await eventsOf(guest.userId, 'user.converted');
    assert.deepEqual(event?.data, {
      userId: guest.userId,
      role: 'user',
      from: 'anonymous',
      method: 'oauth',
      provider: 'corp',
    });
    assert.equal((await eventsOf(guest.userId, 'user.identity_linked')).length, 1);
    const logins = await eventsOf(guest.userId, 'user.login');
    assert.deepEqual(
      logins.map((one) => [one.data.method, one.data.provider]),
      [
        ['anonymous', undefined],
        ['oauth', 'corp'],
        ['oauth', 'corp'],
      ],
    );
  });

  it('never merges into another account: ACCOUNT_EXISTS, and nothing is linked', async () => {
    const holder = await client.signup('hank@example.com');
    const guest = await guestOf();
    const refused = await signInWithProvider('hank', guest.token);
    expectCode(refused, 409, 'ACCOUNT_EXISTS');
    const profile = await profileOf(guest.token);
    assert.equal(profile.role, 'anonymous', 'the guest is still a guest, its session alive');
    assert.deepEqual(profile.providers, []);
    assert.deepEqual(await eventsOf(guest.userId, 'user.converted'), []);
    // Nothing was linked: the identity still signs in nobody, and its account is untouched.
    expectCode(await signInWithProvider('hank'), 409, 'ACCOUNT_EXISTS');
    assert.deepEqual((await profileOf(holder.token)).providers, []);
  });
});
