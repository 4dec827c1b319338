import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';
import { signInThroughIdp, startTestIdp } from '../support/oidc-test-idp.ts';

// Issue 37: the console configures a project's sign-in providers (secrets write-only) and shows
// the identities of a user, checked by signing in through a stock provider on loopback.
describe('console: sign-in providers and identities', () => {
  let coffer: CofferProcess;
  let idp: Awaited<ReturnType<typeof startTestIdp>>;
  let call: ConsoleCall;
  let settingsPath: string;

  before(async () => {
    coffer = await startCofferProcess({ env: { COFFER_OAUTH_ALLOW_PRIVATE: 'true' } });
    idp = await startTestIdp({ redirectUris: [`${coffer.baseUrl}/api/v1/oauth/corp/callback`] });
    call = await signInToConsole(coffer);
    settingsPath = `/projects/${coffer.credentials.projectId}/settings`;
  });
  after(async () => {
    await idp?.stop();
    await coffer?.stop();
  });

  const providersInForce = async () =>
    (await call('GET', '/projects')).body.projects.find(
      (project: { id: string }) => project.id === coffer.credentials.projectId,
    ).settings.oauth;

  it('adds a provider as `coffer project set` does and never answers its secret', async () => {
    const added = await call('PATCH', settingsPath, {
      'oauth.corp.issuer': idp.issuer,
      'oauth.corp.clientId': idp.clientId,
      'oauth.corp.clientSecret': idp.clientSecret,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.project.settings.oauth, {
      corp: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: '(set)' },
    });
    assert.ok(!JSON.stringify(added.body).includes(idp.clientSecret), 'the secret is not answered');
    const listed = await call('GET', '/projects');
    assert.ok(!JSON.stringify(listed.body).includes(idp.clientSecret), 'nor listed');
    // A change of another field keeps the secret (the console sends none when its field is left empty).
    const changed = await call('PATCH', settingsPath, { 'oauth.corp.clientId': idp.clientId });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.project.settings.oauth.corp.clientSecret, '(set)');
    const refused = await call('PATCH', settingsPath, { 'oauth.Bad Name.clientId': 'x' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'VALIDATION_FAILED');
  });

  it("shows a user's identities on their page once they signed in with the provider", async () => {
    const state = randomUUID();
    const start = `${coffer.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({
      state,
      sb_app_id: coffer.credentials.appId,
      sb_app_secret: coffer.credentials.appSecret,
    })}`;
    const callback = await signInThroughIdp(start, 'alice');
    assert.equal(callback.status, 200, await callback.text());
    const token = await coffer.client.call('GET', `/api/v1/oauth/corp/token?state=${state}`);
    assert.equal(token.status, 200, token.text);
    const page = await call('GET', `/projects/${coffer.credentials.projectId}/users/${token.body.userId}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(page.body.user.identities, [
      { provider: 'corp', id: 'alice', displayName: 'alice', email: 'alice@example.com' },
    ]);
    const created = await call('POST', `/projects/${coffer.credentials.projectId}/users`, {
      email: 'plain@example.com',
      password: 'a long enough passphrase',
    });
    const plain = await call(
      'GET',
      `/projects/${coffer.credentials.projectId}/users/${created.body.user.userId}`,
    );
    assert.deepEqual(plain.body.user.identities, [], 'a password user has none');
  });

  it('removes a provider: its sign-in is refused', async () => {
    const removed = await call('PATCH', settingsPath, { 'oauth.corp': null });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.project.settings.oauth, {});
    assert.deepEqual(await providersInForce(), {});
    // Every process sees the change within its access-epoch read (a project is cached till then).
    const startStatus = async () => {
      const url = `${coffer.baseUrl}/api/v1/oauth/corp?${new URLSearchParams({
        state: randomUUID(),
        sb_app_id: coffer.credentials.appId,
      })}`;
      const answer = await fetch(url, { redirect: 'manual' });
      await answer.body?.cancel();
      return answer.status;
    };
    let status = await startStatus();
    for (let attempt = 0; status !== 404 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await startStatus();
    }
    assert.equal(status, 404, 'the removed provider starts no sign-in');
  });
});
