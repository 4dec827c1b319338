import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deleteAccount } from '../../src/domain/identity/delete-account.ts';
import { createOperator } from '../../src/domain/operators/operator-accounts.ts';
import { accountDeletion } from '../../src/wiring/account-deletion.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

const origin = 'https://app.example.com';

/** An answer shaped as @simplewebauthn/browser's, over a challenge, signed by nobody. */
const forgedAssertion = (challenge: string) => ({
  id: randomBytes(16).toString('base64url'),
  rawId: randomBytes(16).toString('base64url'),
  type: 'public-key',
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin })).toString(
      'base64url',
    ),
    authenticatorData: randomBytes(37).toString('base64url'),
    signature: randomBytes(64).toString('base64url'),
  },
  clientExtensionResults: {},
});

// Issue 41, passkeys: what needs no authenticator (the passkeys themselves are made and used by
// Chromium in passkeys-browser.test.ts): the options' shape, the RP ID, the limits, the operators'
// view and removal, and a deleted user's passkeys.
describe('passkeys', () => {
  let server: TestServer;
  let api: ApiClient;
  before(async () => {
    server = await startTestServer({}, { COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: '4' });
    api = await server.createProject('passkeys', [origin]);
  });
  after(() => server?.stop());

  const signInOptions = (body: unknown) => api.call('POST', '/api/v1/auth/passkey/options', { body });

  it('answers an unknown email as it answers an account, the same each time', async () => {
    const alice = await api.signup();
    const known = await signInOptions({ email: alice.email });
    const unknown = await signInOptions({ email: 'nobody@example.com' });
    const again = await signInOptions({ email: 'NOBODY@example.com' });
    for (const answer of [known, unknown, again]) assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(unknown.body).sort(), Object.keys(known.body).sort());
    assert.equal(unknown.body.allowCredentials.length, known.body.allowCredentials.length);
    assert.deepEqual(
      Object.keys(unknown.body.allowCredentials[0]),
      Object.keys(known.body.allowCredentials[0]),
    );
    assert.equal(Buffer.from(unknown.body.allowCredentials[0].id, 'base64url').length, 16);
    assert.deepEqual(
      again.body.allowCredentials,
      unknown.body.allowCredentials,
      'a stand-in that never changes',
    );
    assert.notEqual(unknown.body.challenge, again.body.challenge);
    assert.equal(known.body.userVerification, 'required');
    assert.equal(known.body.rpId, 'app.example.com');
    // No email: the browser offers the RP ID's discoverable passkeys.
    const discoverable = await signInOptions({});
    assert.equal(discoverable.status, 200, discoverable.text);
    assert.ok(!discoverable.body.allowCredentials?.length);
  });

  it("binds passkeys to passkeyRpId, else the first allowed origin's host; none without an origin", async () => {
    // A new project: its settings are read fresh (a project's are cached for the access epoch).
    const projects = server.services.repositories.projects;
    const named = await server.createProject('rp-id', [origin]);
    const project = (await projects.findById(named.credentials.projectId))!;
    await projects.updateSettings(project.id, { ...project.settings, passkeyRpId: 'example.com' });
    const alice = await named.signup();
    const options = await named.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    assert.equal(options.status, 200, options.text);
    assert.equal(options.body.rp.id, 'example.com');

    const bare = await server.createProject('no-origins');
    const refused = await bare.call('POST', '/api/v1/auth/passkey/options', { body: {} });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'VALIDATION_FAILED');
  });

  it('needs a bearer token to register, and answers 404 for a passkey the user has not', async () => {
    const options = await api.call('POST', '/api/v1/user/passkeys/options');
    assert.equal(options.status, 401);
    const alice = await api.signup();
    const gone = await api.call('DELETE', '/api/v1/user/passkeys/nosuchpasskey', { token: alice.token });
    assert.equal(gone.status, 404, gone.text);
    assert.equal(gone.body.code, 'NOT_FOUND');
    const forged = await api.call('POST', '/api/v1/user/passkeys', {
      token: alice.token,
      body: { response: forgedAssertion('not-a-challenge-we-gave') },
    });
    assert.equal(forged.status, 400, forged.text);
  });

  it('lets operators list and remove a user’s passkeys, holds 10 at most, and deletes them with the user', async () => {
    const { services } = server;
    const alice = await api.signup();
    const project = (await services.repositories.projects.findById(api.credentials.projectId))!;
    const user = (await services.repositories.users.findById(project.id, alice.userId))!;
    // Rows as a registration stores them (the Chromium suite registers real ones).
    const event = (id: string) => ({
      id: `evt_${id}`,
      type: 'user.passkey_added' as const,
      occurredAt: new Date(),
      projectId: project.id,
      actor: { kind: 'user' as const, id: user.id, ip: null, userAgent: null },
      fileId: null,
      data: { userId: user.id },
    });
    for (let n = 0; n < 10; n++) {
      const id = `pk${n}${randomBytes(6).toString('hex')}`;
      await services.repositories.passkeys.create(
        {
          id,
          projectId: project.id,
          userId: user.id,
          credentialId: randomBytes(16).toString('base64url'),
          publicKey: randomBytes(77),
          counter: 0,
          userHandle: randomBytes(32).toString('base64url'),
          transports: ['internal'],
          deviceType: 'multiDevice',
          backedUp: true,
          name: `Key ${n}`,
          createdAt: new Date(Date.now() + n),
          lastUsedAt: null,
        },
        event(id),
      );
    }
    const full = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    assert.equal(full.status, 409, full.text);
    assert.equal(full.body.code, 'PASSKEY_LIMIT_REACHED');

    const console = await signInToConsole(server);
    const path = `/projects/${project.id}/users/${user.id}/passkeys`;
    const listed = await console('GET', path);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.passkeys.length, 10);
    assert.deepEqual(Object.keys(listed.body.passkeys[0]).sort(), ['createdAt', 'id', 'lastUsedAt', 'name']);
    const first = listed.body.passkeys[0].id;
    assert.equal((await console('DELETE', `${path}/${first}`)).status, 204);
    assert.equal((await console('DELETE', `${path}/${first}`)).status, 404);
    const mine = await api.call('GET', '/api/v1/user/passkeys', { token: alice.token });
    assert.equal(mine.body.length, 9);
    const serviceKey = await server.createServiceKey(project.id);
    const audit = await api.call('GET', '/api/v1/audit?type=user.passkey_removed', { serviceKey });
    assert.equal(audit.body.events[0]?.actor.kind, 'operator');

    await deleteAccount(accountDeletion(services), project, user.id);
    assert.deepEqual(await services.repositories.passkeys.listByUser(project.id, user.id), []);
  });

  it('answers malformed answers with a 4xx in the error shape', async () => {
    const alice = await api.signup();
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const options = await api.call('POST', '/api/v1/user/passkeys/options', { token: alice.token });
    const challenge = options.body.challenge as string;
    const valid = forgedAssertion(challenge);
    const cases = [
      { ...valid, response: { clientDataJSON: encode(null) } },
      { ...valid, response: { clientDataJSON: 'not base64url at all!' } },
      { ...valid, response: { clientDataJSON: encode({ challenge, type: 'webauthn.create', origin }) } },
      { ...valid, response: { ...valid.response, userHandle: 42 } },
      { ...valid, response: 'not an object' },
      { ...valid, type: 'other' },
    ];
    for (const response of cases) {
      for (const path of ['/api/v1/auth/passkey', '/api/v1/user/passkeys']) {
        const answer = await api.call('POST', path, { token: alice.token, body: { response } });
        assert.ok(answer.status >= 400 && answer.status < 500, `${path} ${answer.status} ${answer.text}`);
        assert.equal(typeof answer.body.code, 'string');
      }
    }
  });

  it('counts refused passkey sign-ins toward the login limits', async () => {
    // An address of its own (all of 127/8 is loopback): 4 failures an hour, then 429.
    const localAddress = '127.0.0.3';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const options = await api.call('POST', '/api/v1/auth/passkey/options', { body: {}, localAddress });
      const refused = await api.call('POST', '/api/v1/auth/passkey', {
        body: { response: forgedAssertion(options.body.challenge) },
        localAddress,
      });
      statuses.push(refused.status);
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    const alice = await api.signup();
    const body = { email: alice.email, password: alice.password };
    const login = await api.call('POST', '/api/v1/auth/login', { body, localAddress });
    assert.equal(login.status, 429, 'a password login from the same address waits too');
  });
});

/** An operator of the in-process server, signed in to its console API. */
async function signInToConsole(server: TestServer) {
  const email = `ops-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'operator passphrase 42';
  await createOperator(server.services.repositories.operators, { email, password }, new Date());
  const api = `${server.baseUrl}/console/api`;
  const signedIn = await fetch(`${api}/session`, {
    method: 'POST',
    headers: { 'x-coffer-console': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signedIn.status, 200);
  const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  return async (method: string, path: string) => {
    const response = await fetch(`${api}${path}`, { method, headers: { cookie, 'x-coffer-console': '1' } });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: read field by field
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
  };
}
