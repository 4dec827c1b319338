import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import type { ApiClient } from '../support/api-client.ts';
import {
  type HostileProvider,
  type HostileScenario,
  startHostileProvider,
  tokenAnswer,
} from '../support/hostile-oidc-provider.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

let idp: HostileProvider;
/** An ID token answer whose claims differ from a correct one by `overrides` (undefined drops one). */
const idToken =
  (overrides: Record<string, unknown>): HostileScenario['answer'] =>
  async (grant) =>
    tokenAnswer(await idp.signedIdToken(grant, overrides));
const unsigned = (payload: object) =>
  `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
    JSON.stringify(payload),
  ).toString('base64url')}.`;
const hmacWith =
  (secret: () => string): HostileScenario['answer'] =>
  async (grant) =>
    tokenAnswer(
      await new SignJWT(idp.claimsOf(grant))
        .setProtectedHeader({ alg: 'HS256', kid: idp.publicJwk.kid, typ: 'JWT' })
        .sign(new TextEncoder().encode(secret())),
    );
const hour = 3600;
const now = () => Math.floor(Date.now() / 1000);

/** Each scenario is a provider of its own (`oauth.<name>.issuer=<hostile origin>/<name>`). */
const scenarios: Record<string, HostileScenario> = {
  good: {},
  'aud-other': { answer: idToken({ aud: 'another-client' }) },
  'iss-other': { answer: idToken({ iss: 'https://evil.example' }) },
  'mix-up': {
    metadata: { authorization_response_iss_parameter_supported: true },
    callbackParams: { iss: 'https://evil.example' },
  },
  'alg-none': { answer: async (grant) => tokenAnswer(unsigned(idp.claimsOf(grant))) },
  'hs256-pem': { answer: hmacWith(() => idp.publicPem) },
  'hs256-jwk': { answer: hmacWith(() => JSON.stringify(idp.publicJwk)) },
  expired: { answer: idToken({ iat: now() - 2 * hour, exp: now() - hour }) },
  'nbf-future': { answer: idToken({ nbf: now() + hour }) },
  'iat-future': { answer: idToken({ iat: now() + hour, exp: now() + 2 * hour }) },
  'nonce-missing': { answer: idToken({ nonce: undefined }) },
  'nonce-wrong': { answer: idToken({ nonce: 'not-the-flows-nonce' }) },
  'foreign-key': {
    answer: async (grant) => {
      const { generateKeyPair } = await import('jose');
      const stranger = await generateKeyPair('RS256');
      return tokenAnswer(await idp.signedIdToken(grant, {}, stranger.privateKey));
    },
  },
  'invalid-grant': {
    answer: async () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'code used' } }),
  },
  'hold-token': { hold: 'token' },
  'hold-discovery': { hold: 'discovery' },
};

/** Issue 37's Rules: every refusal of a hostile provider's answer, on a real server. */
describe('sign-in refusals against a hostile OpenID Connect provider', () => {
  let server: TestServer;
  let client: ApiClient;

  before(async () => {
    idp = await startHostileProvider(scenarios);
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' });
    client = await configuredProject(server, 'hostile');
  });
  after(async () => {
    await server?.stop();
    await idp?.stop();
  });

  // The page names the check that failed (quotes come HTML-escaped: &#34;).
  const refusals: Array<[string, string, RegExp]> = [
    ['an ID token for another audience', 'aud-other', /aud&#34; \(audience\)/],
    ['an ID token of another issuer', 'iss-other', /iss&#34; \(issuer\) claim value/],
    [
      'a callback naming another issuer (mix-up, iss response parameter)',
      'mix-up',
      /&#34;iss&#34;.*parameter/,
    ],
    ['an unsigned ID token (alg: none)', 'alg-none', /alg&#34;/],
    ['an ID token HMAC-signed with the public key (PEM)', 'hs256-pem', /alg&#34;/],
    ['an ID token HMAC-signed with the public key (JWK JSON)', 'hs256-jwk', /alg&#34;/],
    ['an expired ID token', 'expired', /exp&#34; \(expiration time\)/],
    ['an ID token not valid before an hour from now', 'nbf-future', /nbf&#34; \(not before\)/],
    ['an ID token issued in the future', 'iat-future', /iat&#34; \(issued at\) is in the future/],
    ['an ID token without the nonce', 'nonce-missing', /nonce&#34; \(nonce\) claim missing/],
    ['an ID token with another nonce', 'nonce-wrong', /ID Token &#34;nonce&#34; claim value/],
    ['an ID token signed by a key not in the JWKS', 'foreign-key', /signature/],
    ['a token endpoint refusing the code (a replayed code)', 'invalid-grant', /invalid_grant/],
  ];
  for (const [title, scenario, reason] of refusals) {
    it(`refuses ${title}: an error page, and no session for the app`, async () => {
      const state = randomUUID();
      const page = await runFlow(server, client, scenario, state);
      const text = await page.text();
      assert.equal(page.status, 400, text);
      assert.match(text, /The sign-in failed: /);
      assert.match(text, reason);
      const token = await fetchToken(client, scenario, state);
      assert.equal(token.status, 404, token.text);
      assert.equal(token.body.code, 'OAUTH_STATE_NOT_FOUND');
    });
  }

  it('signs in when the same provider answers a correct ID token (the harness is sound)', async () => {
    const state = randomUUID();
    const page = await runFlow(server, client, 'good', state);
    assert.equal(page.status, 200, await page.text());
    const token = await fetchToken(client, 'good', state);
    assert.equal(token.status, 200, token.text);
    const profile = await client.call('GET', '/api/v1/user', { token: token.body.token });
    assert.deepEqual(profile.body.providers, [
      { id: 'mallory', displayName: 'Mallory', providerName: 'good' },
    ]);
  });

  it("login CSRF: an attacker's finished flow is never handed to the victim's app", async () => {
    const attackerState = randomUUID();
    const victimState = randomUUID();
    // The victim's app starts its own flow; the attacker's browser takes its own to the callback
    // URL and the victim's browser is made to load that URL (the attacker's code and state).
    const victimStart = await fetch(startUrl(server, client, 'good', victimState), { redirect: 'manual' });
    assert.equal(victimStart.status, 302);
    await victimStart.body?.cancel();
    const attackerCallback = await callbackUrlOf(server, client, 'good', attackerState);
    const page = await fetch(attackerCallback, { redirect: 'manual' });
    assert.equal(page.status, 200, await page.text());
    const victim = await fetchToken(client, 'good', victimState);
    assert.equal(victim.status, 404, victim.text);
    assert.equal(victim.body.code, 'OAUTH_STATE_NOT_FOUND');
    // The finished flow stays bound to the state its start named: only its starter takes it.
    const attacker = await fetchToken(client, 'good', attackerState);
    assert.equal(attacker.status, 200, attacker.text);
  });

  it('refuses a provider on loopback unless COFFER_OAUTH_ALLOW_PRIVATE: 502 page, no connection made', async () => {
    const guarded = await startTestServer();
    try {
      const project = await guarded.createProject('guarded');
      const port = new URL(idp.origin).port;
      // Plain http is refused by openid-client itself; over https the SSRF guard refuses the
      // loopback address, by IP or by a name resolving to it (before any connection).
      const issuers = {
        plain: idp.issuer('good'),
        tls: `https://127.0.0.1:${port}/good`,
        named: `https://localhost:${port}/good`,
      };
      const { projects } = guarded.services.repositories;
      const stored = (await projects.findById(project.credentials.projectId))!;
      const assignments = Object.entries(issuers).flatMap(([name, issuer]) => [
        `oauth.${name}.issuer=${issuer}`,
        `oauth.${name}.clientId=${idp.clientId}`,
        `oauth.${name}.clientSecret=${idp.clientSecret}`,
      ]);
      await projects.updateSettings(stored.id, assignProjectSettings(stored, assignments));
      const connections = idp.connections;
      for (const name of Object.keys(issuers)) {
        const answer = await fetch(startUrl(guarded, project, name, randomUUID()), { redirect: 'manual' });
        assert.equal(answer.status, 502, name);
        assert.match(await answer.text(), /could not be reached/);
      }
      assert.equal(idp.connections, connections, 'no connection reached the provider');
    } finally {
      await guarded.stop();
    }
  });
});

describe('a provider that never answers, and the per-address limits', () => {
  let server: TestServer;

  before(async () => {
    idp = await startHostileProvider(scenarios);
    server = await startTestServer(
      {},
      {
        COFFER_OAUTH_ALLOW_PRIVATE: 'true',
        COFFER_OAUTH_TIMEOUT_SECONDS: '1',
        COFFER_OAUTH_FLOWS_PER_ADDRESS_PER_HOUR: '2',
      },
    );
  });
  after(async () => {
    await server?.stop();
    await idp?.stop();
  });

  it('a token endpoint that never answers: the page after the timeout; other calls answer meanwhile', {
    timeout: 60_000,
  }, async () => {
    const project = await configuredProject(server, 'slow-token', ['hold-token']);
    const callbackUrl = await callbackUrlOf(server, project, 'hold-token', randomUUID());
    const held = idp.held('hold-token');
    const page = fetch(callbackUrl, { redirect: 'manual' });
    await held;
    // The code exchange is held at the provider: the server still answers everything else.
    const other = await server.client.call('GET', '/api/v1/user', {});
    assert.equal(other.status, 401, other.text);
    const answered = await page;
    assert.equal(answered.status, 502);
    assert.match(await answered.text(), /could not be reached/);
  });

  it('a discovery that never answers: the start answers its page after the timeout', {
    timeout: 60_000,
  }, async () => {
    const project = await configuredProject(server, 'slow-discovery', ['hold-discovery']);
    const held = idp.held('hold-discovery');
    const page = fetch(startUrl(server, project, 'hold-discovery', randomUUID()), { redirect: 'manual' });
    await held;
    const other = await project.call('GET', '/api/v1/user', {});
    assert.equal(other.status, 401, other.text);
    const answered = await page;
    assert.equal(answered.status, 502);
    assert.match(await answered.text(), /could not be reached/);
  });

  it('the third start and the third token fetch from one address are 429', async () => {
    const project = await configuredProject(server, 'limited', ['good']);
    for (let i = 0; i < 2; i++) {
      const start = await fetch(startUrl(server, project, 'good', randomUUID()), { redirect: 'manual' });
      assert.equal(start.status, 302);
      await start.body?.cancel();
    }
    const third = await fetch(startUrl(server, project, 'good', randomUUID()), { redirect: 'manual' });
    assert.equal(third.status, 429);
    assert.match(third.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await third.text(), /Too many requests/);
    for (let i = 0; i < 2; i++)
      assert.equal((await fetchToken(project, 'good', randomUUID())).body.code, 'OAUTH_STATE_NOT_FOUND');
    const limited = await fetchToken(project, 'good', randomUUID());
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.body.code, 'RATE_LIMITED');
  });
});

/** A project whose providers are the hostile provider's scenarios (each under its own name). */
async function configuredProject(server: TestServer, name: string, names = Object.keys(scenarios)) {
  const client = await server.createProject(name);
  const { projects } = server.services.repositories;
  const project = (await projects.findById(client.credentials.projectId))!;
  const assignments = names.flatMap((one) => [
    `oauth.${one}.issuer=${idp.issuer(one)}`,
    `oauth.${one}.clientId=${idp.clientId}`,
    `oauth.${one}.clientSecret=${idp.clientSecret}`,
  ]);
  await projects.updateSettings(project.id, assignProjectSettings(project, assignments));
  return client;
}

/** The popup's start URL, as the SDKs build it. */
function startUrl(server: TestServer, client: ApiClient, provider: string, state: string): string {
  const query = new URLSearchParams({ state, sb_app_id: client.credentials.appId });
  return `${server.baseUrl}/api/v1/oauth/${provider}?${query}`;
}

/** Starts a flow and follows it to the provider, which answers the URL of Coffer's callback. */
async function callbackUrlOf(server: TestServer, client: ApiClient, provider: string, state: string) {
  const start = await fetch(startUrl(server, client, provider, state), { redirect: 'manual' });
  assert.equal(start.status, 302, await start.text());
  const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
  assert.equal(authorize.status, 302);
  await authorize.body?.cancel();
  return authorize.headers.get('location') ?? '';
}

/** A whole popup flow: start, the provider, and Coffer's callback page (answered). */
async function runFlow(server: TestServer, client: ApiClient, provider: string, state: string) {
  return fetch(await callbackUrlOf(server, client, provider, state), { redirect: 'manual' });
}

function fetchToken(client: ApiClient, provider: string, state: string) {
  return client.call('GET', `/api/v1/oauth/${provider}/token?state=${encodeURIComponent(state)}`);
}
