import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { type ConsoleCall, signInToConsole } from '../support/console-client.ts';

// Projects through the console API, checked through the public API they govern.
describe('console: projects', () => {
  let coffer: CofferProcess;
  let call: ConsoleCall;

  before(async () => {
    coffer = await startCofferProcess();
    call = await signInToConsole(coffer);
  });
  after(() => coffer.stop());

  it('creates a project whose app secret is shown once and works on the public API', async () => {
    const created = await call('POST', '/projects', { name: 'photos', origins: ['https://Photos.example/'] });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.project.allowedOrigins, ['https://photos.example']);
    const { appId, appSecret } = created.body;
    const signup = await fetch(`${coffer.baseUrl}/api/v1/auth/signup`, {
      method: 'POST',
      headers: {
        'sb-app-id': appId,
        'sb-app-secret': appSecret,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'ada@example.com', password: 'a long enough passphrase' }),
    });
    assert.equal(signup.status, 200, await signup.clone().text());
    const listed = await call('GET', '/projects');
    assert.ok(listed.body.projects.some((project: { name: string }) => project.name === 'photos'));
    assert.ok(!JSON.stringify(listed.body).includes(appSecret), 'the secret is never shown again');
    assert.equal((await call('POST', '/projects', { name: 'no spaces allowed' })).status, 400);
  });

  it('changes settings with the checks of coffer project set; null restores a default', async () => {
    const { body } = await call('POST', '/projects', { name: 'settings-test' });
    const id = body.project.id;
    const changed = await call('PATCH', `/projects/${id}/settings`, {
      signup: 'closed',
      maxFileSizeBytes: '10MiB',
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.project.settings.signup, 'closed');
    assert.equal(changed.body.project.settings.maxFileSizeBytes, 10 * 1024 * 1024);
    const refused = await fetch(`${coffer.baseUrl}/api/v1/auth/signup`, {
      method: 'POST',
      headers: {
        'sb-app-id': body.appId,
        'sb-app-secret': body.appSecret,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'bob@example.com', password: 'a long enough passphrase' }),
    });
    assert.equal(refused.status, 403);
    const wrong = await call('PATCH', `/projects/${id}/settings`, {
      signup: 'sometimes',
      maxFileSizeBytes: null,
    });
    assert.equal(wrong.status, 400);
    assert.equal(
      (await call('GET', '/projects')).body.projects.find((p: { id: string }) => p.id === id).settings
        .maxFileSizeBytes,
      10 * 1024 * 1024,
      'nothing changed',
    );
    const restored = await call('PATCH', `/projects/${id}/settings`, { signup: null });
    assert.equal(restored.body.project.settings.signup, 'open');
    assert.equal((await call('PATCH', '/projects/no-such-project/settings', { signup: null })).status, 404);
  });

  it('replaces the allowed origins; the preflight follows', async () => {
    const { body } = await call('POST', '/projects', {
      name: 'origins-test',
      origins: ['https://old.example'],
    });
    const replaced = await call('PUT', `/projects/${body.project.id}/origins`, {
      origins: ['https://new.example', 'http://localhost:5173'],
    });
    assert.equal(replaced.status, 200);
    assert.deepEqual([...replaced.body.project.allowedOrigins].sort(), [
      'http://localhost:5173',
      'https://new.example',
    ]);
    assert.equal(
      (await call('PUT', `/projects/${body.project.id}/origins`, { origins: ['not a url'] })).status,
      400,
    );
  });

  it('rotates app secrets: a new credential works, the old one is refused, the last one is kept', async () => {
    const { body } = await call('POST', '/projects', { name: 'apps-test' });
    const id = body.project.id;
    let signups = 0;
    const signupWith = (appId: string, appSecret: string) =>
      fetch(`${coffer.baseUrl}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'sb-app-id': appId, 'sb-app-secret': appSecret, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `user${++signups}@example.com`, password: 'a long enough passphrase' }),
      });
    const issued = await call('POST', `/projects/${id}/apps`);
    assert.equal(issued.status, 201);
    assert.equal((await signupWith(issued.body.appId, issued.body.appSecret)).status, 200);
    const apps = (await call('GET', `/projects/${id}/apps`)).body.apps.map(
      (item: { appId: string }) => item.appId,
    );
    assert.deepEqual([...apps].sort(), [body.appId, issued.body.appId].sort());
    assert.equal((await call('DELETE', `/projects/${id}/apps/${body.appId}`)).status, 204);
    // Every process refuses it from its next access-epoch read (at most 250 ms).
    let status = 200;
    for (let attempt = 0; attempt < 100 && status !== 401; attempt++) {
      status = (await signupWith(body.appId, body.appSecret)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(status, 401, 'the revoked credential is refused');
    assert.equal(
      (await call('DELETE', `/projects/${id}/apps/${issued.body.appId}`)).status,
      400,
      'the last one stays',
    );
  });

  it('rotates signing keys as coffer keys rotate does', async () => {
    const rotated = await call('POST', '/keys/rotate', { purpose: 'all' });
    assert.equal(rotated.status, 200);
    assert.deepEqual(rotated.body.rotated.map((key: { purpose: string }) => key.purpose).sort(), [
      'link',
      'token',
    ]);
    assert.equal((await call('POST', '/keys/rotate', { purpose: 'everything' })).status, 400);
  });
});
