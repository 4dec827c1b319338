import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';

const password = 'operator passphrase 42';
const csrf = { 'x-coffer-console': '1', 'content-type': 'application/json' };

// The console's sign-in, its session cookie and its barrier, on a real `coffer serve`.
describe('console sign-in and its barrier', () => {
  let coffer: CofferProcess;
  let api: string;
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--data-dir', coffer.dataDir, '--json'], coffer.env, { input });
  const signIn = (body: unknown, headers: Record<string, string> = csrf) =>
    fetch(`${api}/session`, { method: 'POST', headers, body: JSON.stringify(body) });
  /** Signs in; answers the cookie pair to send back (`coffer_console=…`). */
  const signedIn = async () => {
    const response = await signIn({ email: 'Ops@Example.com', password });
    assert.equal(response.status, 200, await response.clone().text());
    return response.headers.getSetCookie()[0]!.split(';')[0]!;
  };

  before(async () => {
    coffer = await startCofferProcess();
    api = `${coffer.baseUrl}/console/api`;
    const created = await cli(
      ['operator', 'create', '--email', 'ops@example.com', '--password-stdin'],
      password,
    );
    assert.equal(created.code, 0, created.stderr);
  });
  after(() => coffer.stop());

  it('signs in with a strict, HttpOnly cookie scoped to /console; shows the operator and the projects', async () => {
    const response = await signIn({ email: 'OPS@example.com', password });
    assert.equal(response.status, 200);
    assert.deepEqual((await response.json()).operator.email, 'ops@example.com');
    const cookie = response.headers.getSetCookie()[0]!;
    assert.match(cookie, /^coffer_console=[\w-]{40,};/);
    for (const attribute of [/; Path=\/console/, /; HttpOnly/, /; SameSite=Strict/, /; Max-Age=43200/])
      assert.match(cookie, attribute);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const pair = cookie.split(';')[0]!;
    const session = await fetch(`${api}/session`, { headers: { cookie: pair } });
    assert.equal((await session.json()).operator.email, 'ops@example.com');
    const projects = await (await fetch(`${api}/projects`, { headers: { cookie: pair } })).json();
    assert.ok(
      projects.projects.some((project: { id: string }) => project.id === coffer.credentials.projectId),
    );
    assert.ok(!JSON.stringify(projects).includes(coffer.credentials.appSecret), 'no secret');
  });

  it('refuses wrong passwords and unknown emails alike, then throttles', async () => {
    const wrong = await signIn({ email: 'ops@example.com', password: 'not it at all' });
    const unknown = await signIn({ email: 'nobody@example.com', password });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal((await wrong.json()).code, (await unknown.json()).code);
    let status = 401;
    for (let attempt = 0; attempt < 40 && status === 401; attempt++)
      status = (await signIn({ email: 'target@example.com', password: `guess ${attempt}` })).status;
    assert.equal(status, 429, 'failed sign-ins are rate limited');
  });

  it('opens nothing without the session: app credentials and bearer tokens do not count', async () => {
    const { token } = await coffer.client.signup();
    const headers = {
      'sb-app-id': coffer.credentials.appId,
      'sb-app-secret': coffer.credentials.appSecret,
      authorization: `Bearer ${token}`,
    };
    for (const path of ['/session', '/projects']) {
      const response = await fetch(`${api}${path}`, { headers });
      assert.equal(response.status, 401, path);
      assert.equal((await response.json()).code, 'AUTH_REQUIRED');
    }
    const forged = await fetch(`${api}/projects`, { headers: { cookie: 'coffer_console=forged-token' } });
    assert.equal(forged.status, 401);
  });

  it('refuses a cross-site request: no console header, or another origin', async () => {
    const pair = await signedIn();
    const noHeader = await fetch(`${api}/session`, { method: 'DELETE', headers: { cookie: pair } });
    assert.equal(noHeader.status, 403);
    const otherOrigin = await fetch(`${api}/session`, {
      method: 'DELETE',
      headers: { cookie: pair, 'x-coffer-console': '1', origin: 'https://evil.example' },
    });
    assert.equal(otherOrigin.status, 403);
    const loginFromElsewhere = await signIn(
      { email: 'ops@example.com', password },
      { 'content-type': 'application/json' },
    );
    assert.equal(loginFromElsewhere.status, 403, 'sign-in needs the header too');
    assert.equal(
      (await fetch(`${api}/session`, { headers: { cookie: pair } })).status,
      200,
      'still signed in',
    );
  });

  it('signs out: the session ends on the server, not only in the browser', async () => {
    const pair = await signedIn();
    const out = await fetch(`${api}/session`, {
      method: 'DELETE',
      headers: { cookie: pair, 'x-coffer-console': '1' },
    });
    assert.equal(out.status, 204);
    assert.match(out.headers.getSetCookie()[0]!, /^coffer_console=;/);
    assert.equal((await fetch(`${api}/session`, { headers: { cookie: pair } })).status, 401);
  });

  it('lists and deletes operators from the command line; a deleted operator is signed out at once', async () => {
    const pair = await signedIn();
    const listed = await cli(['operator', 'list']);
    assert.deepEqual(
      JSON.parse(listed.stdout).operators.map((operator: { email: string }) => operator.email),
      ['ops@example.com'],
    );
    const duplicate = await cli(
      ['operator', 'create', '--email', 'OPS@example.com', '--password-stdin'],
      password,
    );
    assert.equal(duplicate.code, 1);
    assert.equal(JSON.parse(duplicate.stdout).code, 'EMAIL_TAKEN');
    assert.equal((await cli(['operator', 'delete', 'ops@example.com'])).code, 0);
    assert.equal((await fetch(`${api}/session`, { headers: { cookie: pair } })).status, 401);
    assert.equal((await cli(['operator', 'delete', 'ops@example.com'])).code, 1);
  });
});
