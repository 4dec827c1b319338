import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportSPKI, SignJWT, UnsecuredJWT } from 'jose';
import { assignProjectSettings } from '../../src/domain/identity/assign-project-settings.ts';
import { deleteProject } from '../../src/domain/identity/delete-project.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { startTestIssuer, type TestIssuer } from '../support/test-jwks-server.ts';

const audience = 'coffer-trusted-test';
const now = () => Math.floor(Date.now() / 1000);

/** Issue 37, item 4: JWTs of an issuer a project trusts are bearer tokens (jose signs them, a JWKS on loopback). */
describe('bring your own tokens: trusted issuers', () => {
  let server: TestServer;
  let acme: TestIssuer;
  let failing: TestIssuer;
  let client: ApiClient;
  let roles: ApiClient;
  let admins: ApiClient;
  let down: ApiClient;

  before(async () => {
    server = await startTestServer({}, { COFFER_OAUTH_ALLOW_PRIVATE: 'true' });
    acme = await startTestIssuer({ issuer: 'https://acme.example' });
    failing = await startTestIssuer({ issuer: 'https://failing.example' });
    failing.answerWith(500);
    const trust = (name: string, issuer: TestIssuer, extra: string[] = []) => [
      `trustedIssuers.${name}.issuer=${issuer.issuer}`,
      `trustedIssuers.${name}.jwksUrl=${issuer.jwksUrl}`,
      `trustedIssuers.${name}.audience=${audience}`,
      ...extra.map((assignment) => `trustedIssuers.${name}.${assignment}`),
    ];
    client = await server.createProject('trusted');
    await configure(client, trust('acme', acme));
    roles = await server.createProject('trusted-roles');
    await configure(roles, trust('acme', acme, ['roleClaim=coffer_role', 'roles=editor']));
    admins = await server.createProject('trusted-admins');
    await configure(admins, trust('acme', acme, ['roleClaim=coffer_role', 'roles=editor, admin']));
    down = await server.createProject('trusted-down');
    await configure(down, [
      ...trust('failing', failing),
      'trustedIssuers.gone.issuer=https://gone.example',
      `trustedIssuers.gone.jwksUrl=${await closedPortUrl()}`,
      `trustedIssuers.gone.audience=${audience}`,
    ]);
  });
  after(async () => {
    await server?.stop();
    await acme?.stop();
    await failing?.stop();
  });

  async function configure(target: ApiClient, assignments: string[]) {
    const { projects } = server.services.repositories;
    const project = (await projects.findById(target.credentials.projectId))!;
    await projects.updateSettings(project.id, assignProjectSettings(project, assignments));
  }
  const profileOf = (target: ApiClient, token: string) => target.call('GET', '/api/v1/user', { token });

  it('reads a file shared with its user, made on first use; a second token of the same sub is the same user', async () => {
    const first = await acme.sign({
      sub: 'alice',
      aud: audience,
      email: 'alice@acme.example',
      email_verified: true,
    });
    const profile = await profileOf(client, first);
    assert.equal(profile.status, 200, profile.text);
    assert.equal(profile.body.role, 'user');
    assert.deepEqual(profile.body.emails, [{ email: 'alice@acme.example', primary: true, verified: true }]);
    assert.deepEqual(profile.body.providers, [
      { id: 'alice', displayName: 'alice@acme.example', providerName: 'issuer:acme' },
    ]);
    const userId = profile.body._id;

    const owner = await client.signup();
    const record = await client.uploadFile(owner.token, 'for-alice.txt', 'hello alice');
    const share = await client.call('POST', `/api/v1/file/${record._id}/acl/user/${userId}`, {
      token: owner.token,
    });
    assert.equal(share.status, 200, share.text);

    const second = await acme.sign({ sub: 'alice', aud: audience, exp: now() + 300 }, { kid: 'ec-1' });
    assert.notEqual(second, first);
    const read = await client.call('GET', `/api/v1/file/${record._id}`, { token: second });
    assert.equal(read.status, 200, read.text);
    assert.equal((await profileOf(client, second)).body._id, userId, 'the same sub is the same user');

    // One user.login (method token) when the user was made, not one per request.
    const events = await server.services.repositories.events.search({
      projectId: client.credentials.projectId,
      limit: 1000,
    });
    const logins = events.filter((event) => event.type === 'user.login' && event.data.userId === userId);
    assert.deepEqual(
      logins.map((event) => [event.data.method, event.data.provider]),
      [['token', 'issuer:acme']],
    );
  });

  it("Coffer's own tokens keep working in a project with trusted issuers", async () => {
    const user = await client.signup();
    assert.equal((await profileOf(client, user.token)).status, 200);
  });

  it('without an email claim, the user gets a unique address of its own; an address an account holds is not taken over', async () => {
    const token = await acme.sign({ sub: 'no-mail', aud: audience });
    const profile = await profileOf(client, token);
    assert.equal(profile.status, 200, profile.text);
    assert.match(profile.body.emails[0].email, /@oauth\.invalid$/);

    const holder = await client.signup('held@example.com');
    const taker = await acme.sign({
      sub: 'taker',
      aud: audience,
      email: 'held@example.com',
      email_verified: true,
    });
    const refused = await profileOf(client, taker);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'ACCOUNT_EXISTS');
    assert.equal((await profileOf(client, holder.token)).body.providers.length, 0);
  });

  it('roleClaim grants a role only when roles lists it: an admin role only if listed', async () => {
    const claim = async (target: ApiClient, sub: string, role?: string) =>
      (await profileOf(target, await acme.sign({ sub, aud: audience, coffer_role: role }))).body.role;
    assert.equal(await claim(roles, 'ed', 'editor'), 'editor');
    assert.equal(await claim(roles, 'would-be-admin', 'admin'), 'user', 'admin is not listed');
    assert.equal(await claim(roles, 'nobody'), 'user');
    assert.equal(await claim(admins, 'boss', 'admin'), 'admin');
    const listed = await acme.sign({ sub: 'arrays', aud: audience, coffer_role: ['viewer', 'admin'] });
    assert.equal((await profileOf(admins, listed)).body.role, 'admin', 'an array claim: a listed value');
    // The issuer decides: the same user's next token without the role demotes them.
    assert.equal(await claim(admins, 'boss'), 'user');
  });

  it('refuses a disabled user like any other (403 ACCOUNT_DISABLED)', async () => {
    const token = await acme.sign({ sub: 'to-disable', aud: audience });
    const profile = await profileOf(client, token);
    assert.equal(profile.status, 200, profile.text);
    await server.services.repositories.users.setEnabled(
      client.credentials.projectId,
      profile.body._id,
      false,
    );
    const refused = await profileOf(client, await acme.sign({ sub: 'to-disable', aud: audience }));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'ACCOUNT_DISABLED');
  });

  it('a deleted user takes its identity along: the same sub comes back as a new user', async () => {
    const first = await profileOf(client, await acme.sign({ sub: 'returning', aud: audience }));
    assert.equal(first.status, 200, first.text);
    await server.services.repositories.users.delete(client.credentials.projectId, first.body._id);
    const again = await profileOf(client, await acme.sign({ sub: 'returning', aud: audience }));
    assert.equal(again.status, 200, again.text);
    assert.notEqual(again.body._id, first.body._id);
  });

  it('a project whose users came from a trusted issuer can be deleted', async () => {
    const doomed = await server.createProject('trusted-doomed');
    await configure(doomed, [
      `trustedIssuers.acme.issuer=${acme.issuer}`,
      `trustedIssuers.acme.jwksUrl=${acme.jwksUrl}`,
      `trustedIssuers.acme.audience=${audience}`,
    ]);
    assert.equal((await profileOf(doomed, await acme.sign({ sub: 'x', aud: audience }))).status, 200);
    const { repositories, blobs } = server.services;
    const project = (await repositories.projects.findById(doomed.credentials.projectId))!;
    const report = await deleteProject({ deletion: repositories.projectDeletion, blobs, project });
    assert.equal(report.users, 1);
    assert.equal(await repositories.projects.findById(project.id), undefined);
  });

  describe('refusals', () => {
    const claims = { sub: 'mallory', aud: audience };
    const cases: Array<{ name: string; token: () => Promise<string>; code: string }> = [
      {
        name: 'another audience',
        token: () => acme.sign({ ...claims, aud: 'someone-else' }),
        code: 'INVALID_TOKEN',
      },
      {
        name: 'an issuer the project does not trust',
        token: async () =>
          new SignJWT({ ...claims, iss: 'https://evil.example', exp: now() + 600 })
            .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
            .sign(acme.rsa.privateKey),
        code: 'INVALID_TOKEN',
      },
      {
        name: 'expired beyond the 60 s skew',
        token: () => acme.sign({ ...claims, iat: now() - 600, exp: now() - 120 }),
        code: 'TOKEN_EXPIRED',
      },
      {
        name: 'nbf beyond the 60 s skew',
        token: () => acme.sign({ ...claims, nbf: now() + 600 }),
        code: 'INVALID_TOKEN',
      },
      {
        name: 'alg none',
        token: async () => new UnsecuredJWT({ ...claims, iss: acme.issuer, exp: now() + 600 }).encode(),
        code: 'INVALID_TOKEN',
      },
      {
        name: "HS256 signed with the public key's bytes",
        token: async () =>
          new SignJWT({ ...claims, iss: acme.issuer, exp: now() + 600 })
            .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
            .sign(new TextEncoder().encode(await exportSPKI(acme.rsa.publicKey))),
        code: 'INVALID_TOKEN',
      },
      {
        name: "a known kid, another key's signature",
        token: async () =>
          new SignJWT({ ...claims, iss: acme.issuer, exp: now() + 600 })
            .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
            .sign(failing.rsa.privateKey),
        code: 'INVALID_TOKEN',
      },
      {
        name: 'no exp',
        token: async () =>
          new SignJWT({ ...claims, iss: acme.issuer })
            .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
            .sign(acme.rsa.privateKey),
        code: 'INVALID_TOKEN',
      },
    ];
    for (const scenario of cases)
      it(`${scenario.name}: 401 ${scenario.code}`, async () => {
        const refused = await profileOf(client, await scenario.token());
        assert.equal(refused.status, 401, refused.text);
        assert.equal(refused.body.code, scenario.code);
      });

    it('within the 60 s skew, an expired token still passes', async () => {
      const token = await acme.sign({ sub: 'skewed', aud: audience, iat: now() - 600, exp: now() - 20 });
      assert.equal((await profileOf(client, token)).status, 200);
    });

    it('an unknown kid: 401, and the JWKS is fetched again at most once a minute', async () => {
      await profileOf(client, await acme.sign(claims));
      const before = acme.fetches;
      for (let round = 0; round < 3; round++) {
        const refused = await profileOf(client, await acme.sign(claims, { kid: `unknown-${round}` }));
        assert.equal(refused.status, 401, refused.text);
        assert.equal(refused.body.code, 'INVALID_TOKEN');
      }
      assert.ok(acme.fetches - before <= 1, `fetched ${acme.fetches - before} times for 3 unknown kids`);
    });

    it('the JWKS unreachable or failing: 503 UNAVAILABLE (retry), never 500 or a pass', async () => {
      for (const issuer of ['https://gone.example', 'https://failing.example']) {
        const token = await new SignJWT({ ...claims, iss: issuer, exp: now() + 600 })
          .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
          .sign(failing.rsa.privateKey);
        const refused = await profileOf(down, token);
        assert.equal(refused.status, 503, refused.text);
        assert.equal(refused.body.code, 'UNAVAILABLE');
      }
    });
  });

  it('settings: a complete issuer per name, one name per iss, roles as a list of role names', async () => {
    const project = (await server.services.repositories.projects.findById(client.credentials.projectId))!;
    const set = (...assignments: string[]) => assignProjectSettings(project, assignments);
    assert.deepEqual(set('trustedIssuers.other.roles=b , a,b').trustedIssuers.other, { roles: 'b,a' });
    assert.throws(() => set(`trustedIssuers.twin.issuer=${acme.issuer}`), /already has this issuer/);
    assert.throws(() => set('trustedIssuers.x.jwksUrl=ftp://keys.example'), /http\(s\) URL/);
    assert.throws(() => set('trustedIssuers.x.roles=Admin'), /role must be a lowercase name/);
    assert.throws(() => set('trustedIssuers.x.secret=1'), /fields are/);
    assert.deepEqual(set('trustedIssuers.acme=').trustedIssuers, {});
  });
});

/** The URL of a port nothing listens on any more: a JWKS that is down. */
async function closedPortUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/jwks.json`;
}
