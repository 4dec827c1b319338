import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

type Account = { token: string; userId: string; email: string };
type AuditEvent = {
  id: string;
  type: string;
  timestamp: string;
  project: string;
  actor: { kind: string; id: string | null; ip: string | null; userAgent: string | null };
  fileId: string | null;
  data: Record<string, unknown>;
};
type AuditPage = { events: AuditEvent[]; nextCursor: string | null };

/** Issue 22: the audit log (GET /api/v1/audit) on both stacks: who did what, from where, and its filters. */
describe('the audit log', () => {
  // Events take their time from the service's clock: the time filters get exact bounds.
  const clock = new ManualClock();
  let server: TestServer;
  let alice: Account;
  let bob: Account;
  let fileId: string;
  let serviceKey: string;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    serviceKey = await server.createServiceKey();
    alice = await server.client.signup();
    bob = await server.client.signup();
    fileId = (await server.client.uploadFile(alice.token, 'audit/report.txt', 'audited'))._id;
  });
  after(() => server?.stop());

  /** A page of the audit log read with a service key (a backend). */
  const audit = async (query = ''): Promise<AuditPage> => {
    const answer = await server.client.call('GET', `/api/v1/audit${query}`, { serviceKey });
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  const share = (account: Account, target: string, localAddress?: string) =>
    server.client.call('POST', `/api/v1/file/${fileId}/acl/${target}`, {
      token: account.token,
      headers: { 'user-agent': 'audit-test/1.0' },
      ...(localAddress && { localAddress }),
    });
  const types = (events: AuditEvent[]) => events.map((event) => event.type);

  it("records who shared: the sharer's id, address and user agent, and what was shared", async () => {
    const shared = await share(alice, `user/${bob.userId}`, '127.0.0.3');
    assert.equal(shared.status, 200, shared.text);
    const { events, nextCursor } = await audit(`?type=file.shared&fileId=${fileId}`);
    assert.equal(events.length, 1);
    assert.equal(nextCursor, null);
    const [event] = events as [AuditEvent];
    assert.match(event.id, /^evt_[0-9A-Z]{26}$/);
    assert.equal(event.type, 'file.shared');
    assert.equal(event.timestamp, clock.now().toISOString());
    assert.equal(event.project, server.credentials.projectId);
    assert.deepEqual(event.actor, {
      kind: 'user',
      id: alice.userId,
      ip: '127.0.0.3',
      userAgent: 'audit-test/1.0',
      // Issue 43: beside the stored fields, the actor as a person reads it.
      email: alice.email,
      name: alice.email,
    });
    assert.equal(event.fileId, fileId);
    assert.deepEqual(event.data.entry, { scope: 'user', identifier: bob.userId });
    assert.equal(event.data.filePath, 'audit/report.txt');
  });

  it('records who logged in, with the address', async () => {
    const email = `login-${process.hrtime.bigint()}@audit.example`;
    const account = await server.client.signup(email);
    const login = await server.client.call('POST', '/api/v1/auth/login', {
      body: { email, password: account.password },
      localAddress: '127.0.0.4',
    });
    assert.equal(login.status, 200, login.text);
    const { events } = await audit(`?type=user.login&actor=${account.userId}`);
    const fromThere = events.filter((event) => event.actor.ip === '127.0.0.4');
    assert.equal(fromThere.length, 1, JSON.stringify(events));
    assert.deepEqual(fromThere[0]!.actor.id, account.userId);
  });

  it('filters by type (repeated, comma-separated or a group), actor, file and time', async () => {
    const other = (await server.client.uploadFile(bob.token, 'audit/other.txt', 'other'))._id;
    clock.advance(60);
    const middle = clock.now();
    // A refused share changes nothing and records nothing.
    assert.equal((await share(bob, 'role/auditors')).status, 403);
    assert.equal((await share(alice, 'role/auditors')).status, 200);
    const unshared = await server.client.call('DELETE', `/api/v1/file/${fileId}/acl/role/auditors`, {
      token: alice.token,
    });
    assert.equal(unshared.status, 204, unshared.text);
    clock.advance(60);

    const byFile = (await audit(`?fileId=${fileId}`)).events;
    assert.deepEqual(types(byFile), ['file.unshared', 'file.shared', 'file.shared', 'file.uploaded']);
    assert.deepEqual(types((await audit(`?fileId=${other}`)).events), ['file.uploaded']);

    const repeated = (await audit(`?fileId=${fileId}&type=file.shared&type=file.unshared`)).events;
    assert.deepEqual(types(repeated), ['file.unshared', 'file.shared', 'file.shared']);
    assert.deepEqual((await audit(`?fileId=${fileId}&type=file.shared,file.unshared`)).events, repeated);
    assert.deepEqual((await audit(`?fileId=${fileId}&type=file.*`)).events, byFile);

    const byBob = (await audit(`?actor=${bob.userId}`)).events;
    assert.ok(byBob.length > 0 && byBob.every((event) => event.actor.id === bob.userId));
    assert.ok(byBob.some((event) => event.fileId === other));
    assert.ok(!byBob.some((event) => event.fileId === fileId), "bob's refused share left no event");

    const after = (await audit(`?fileId=${fileId}&from=${middle.toISOString()}`)).events;
    assert.deepEqual(types(after), ['file.unshared', 'file.shared']);
    const before = (await audit(`?fileId=${fileId}&to=${middle.toISOString()}`)).events;
    assert.deepEqual(types(before), ['file.shared', 'file.uploaded']);
    const end = clock.now().toISOString();
    assert.deepEqual((await audit(`?fileId=${fileId}&from=${middle.toISOString()}&to=${end}`)).events, after);
    assert.deepEqual((await audit(`?fileId=${fileId}&from=${end}`)).events, []);
  });

  it('pages with the cursor, newest first: every event once, none left out', async () => {
    const paged = (await server.client.uploadFile(alice.token, 'audit/paged.txt', 'paged'))._id;
    // 130 shares and 130 unshares: 261 events with the upload, three pages.
    for (let round = 0; round < 130; round++) {
      for (const method of ['POST', 'DELETE']) {
        const answer = await server.client.call(method, `/api/v1/file/${paged}/acl/role/round-${round}`, {
          token: alice.token,
        });
        assert.equal(answer.status, method === 'POST' ? 200 : 204, answer.text);
      }
    }
    const seen: AuditEvent[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await audit(`?fileId=${paged}${cursor ? `&cursor=${cursor}` : ''}`);
      sizes.push(page.events.length);
      seen.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(sizes, [100, 100, 61]);
    assert.equal(new Set(seen.map((event) => event.id)).size, 261, 'no event twice');
    const expected = ['file.uploaded'];
    for (let round = 0; round < 130; round++) expected.push('file.shared', 'file.unshared');
    assert.deepEqual(types(seen), expected.reverse(), 'every event, newest first');
    const roles = seen
      .filter((event) => event.type === 'file.shared')
      .map((event) => (event.data.entry as { identifier: string }).identifier);
    assert.deepEqual(
      roles,
      Array.from({ length: 130 }, (_, round) => `round-${129 - round}`),
    );
    // The cursor with a filter: the shares alone, 130 in two pages.
    const first = await audit(`?fileId=${paged}&type=file.shared`);
    const second = await audit(`?fileId=${paged}&type=file.shared&cursor=${first.nextCursor}`);
    assert.deepEqual([first.events.length, second.events.length, second.nextCursor], [100, 30, null]);
  });

  it('answers a bad filter with 400 naming it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?type=file.exploded', /type: "file.exploded" is no event type/],
      ['?type=nothing.*', /type: "nothing.\*"/],
      ['?from=yesterday', /from must be an ISO 8601/],
      ['?to=2026-02-31', /to must be an ISO 8601/],
      ['?from=2026-01-31T12:00:00', /from must be an ISO 8601/],
      ['?from=2026-02-01&to=2026-01-01', /from must be before to/],
      ['?cursor=bm90IGEgY3Vyc29y', /cursor/],
      ['?cursor=!!', /cursor/],
    ];
    for (const [query, message] of cases) {
      const answer = await server.client.call('GET', `/api/v1/audit${query}`, { serviceKey });
      assert.equal(answer.status, 400, `${query}: ${answer.text}`);
      assert.equal(answer.body.code, 'VALIDATION_FAILED', query);
      assert.match(answer.body.message, message, query);
    }
  });

  it("is read with a service key or an admin's token; the app secret and a user's token are refused", async () => {
    const origin = 'https://audit.example';
    const project = await server.createProject('audit-access', [origin]);
    const user = await project.signup();
    const fromBrowser = (token?: string) =>
      project.call('GET', '/api/v1/audit', {
        anonymous: true,
        ...(token && { token }),
        headers: { 'sb-app-id': project.credentials.appId, origin },
      });
    const asUser = await fromBrowser(user.token);
    assert.equal(asUser.status, 403, asUser.text);
    assert.equal(asUser.body.code, 'ACCESS_DENIED');
    const nobody = await fromBrowser();
    assert.equal(nobody.status, 401, nobody.text);
    assert.equal(nobody.body.code, 'AUTH_REQUIRED');
    await server.services.repositories.users.setRole(project.credentials.projectId, user.userId, 'admin');
    const asAdmin = await fromBrowser(user.token);
    assert.equal(asAdmin.status, 200, asAdmin.text);
    // Issue 35: the app secret ships inside apps. Alone it reads nothing; beside a user's token
    // it is that user.
    const secretOnly = await project.call('GET', '/api/v1/audit');
    assert.equal(secretOnly.status, 401, secretOnly.text);
    assert.equal(secretOnly.body.code, 'AUTH_REQUIRED');
    const plain = await project.signup();
    const secretAndUser = await project.call('GET', '/api/v1/audit', { token: plain.token });
    assert.equal(secretAndUser.status, 403, secretAndUser.text);
    assert.equal(secretAndUser.body.code, 'ACCESS_DENIED');
    const withKey = await project.call('GET', '/api/v1/audit', {
      serviceKey: await server.createServiceKey(project.credentials.projectId),
    });
    assert.equal(withKey.status, 200, withKey.text);
    // The key's project only: another project's key is no key here.
    const otherKey = await project.call('GET', '/api/v1/audit', { serviceKey });
    assert.equal(otherKey.status, 401, otherKey.text);
    assert.equal(otherKey.body.code, 'INVALID_TOKEN');
    // Each project reads its own log only.
    assert.ok(withKey.body.events.length > 0);
    assert.ok(
      withKey.body.events.every((event: AuditEvent) => event.project === project.credentials.projectId),
    );
    assert.deepEqual(
      asAdmin.body.events.map((event: AuditEvent) => event.id),
      withKey.body.events.map((event: AuditEvent) => event.id).slice(-asAdmin.body.events.length),
    );
  });
});
