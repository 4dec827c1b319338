import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditList, toAuditLine } from '../../src/cli/audit-commands.ts';
import { operatorActor, toUserEvent } from '../../src/domain/events/user-events.ts';
import { createOperator } from '../../src/domain/operators/operator-accounts.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

type Person = { email: string | null };
type AuditEvent = {
  type: string;
  actor: { kind: string; id: string | null; email: string | null; name: string | null };
  data: Record<string, unknown>;
  subject: ({ userId: string } & Person) | null;
};
type AuditPage = { events: AuditEvent[]; nextCursor: string | null };

/** Issue 43 item 6: the audit log names people by email beside their ids, a page at a time. */
describe('the audit log names people', () => {
  let server: TestServer;
  let serviceKey: string;
  after(() => server?.stop());
  before(async () => {
    server = await startTestServer();
    // A backend reads the log with its service key.
    serviceKey = await server.createServiceKey();
  });

  const get = (query: string) => server.client.call('GET', `/api/v1/audit${query}`, { serviceKey });
  const audit = async (query: string): Promise<AuditPage> => {
    const answer = await get(query);
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };

  it("gives each event of a full page its actor's and its user's email, from many users", async () => {
    const people = [];
    for (let n = 0; n < 40; n++)
      people.push(await server.client.signup(`person-${n}-${process.hrtime.bigint()}@people.example`));
    const emailOf = new Map(people.map((person) => [person.userId, person.email]));
    // One user.created each, by the user about themselves: a page of 40 users' events.
    const { events } = await audit('?type=user.created&pageSize=100');
    const ours = events.filter((event) => emailOf.has(event.subject?.userId ?? ''));
    assert.equal(ours.length, people.length);
    for (const event of ours) {
      const email = emailOf.get(event.subject!.userId)!;
      assert.deepEqual(event.subject, { userId: event.subject!.userId, email });
      assert.equal(event.actor.kind, 'user');
      assert.equal(event.actor.email, email);
      assert.equal(event.actor.name, email);
    }
  });

  it("names a service key by its name, an operator by email, and a deleted user's email as null", async () => {
    const leaving = await server.client.signup(`leaving-${process.hrtime.bigint()}@people.example`);
    const { services } = server;
    const operator = await createOperator(
      services.repositories.operators,
      { email: `ops-${process.hrtime.bigint()}@people.example`, password: 'operator passphrase 42' },
      new Date(),
    );
    const project = { projectId: server.credentials.projectId };
    await services.repositories.events.record(
      toUserEvent('user.updated', operatorActor(operator.id), { ...project, id: leaving.userId }, new Date()),
    );
    const byOperator = (await audit('?type=user.updated&pageSize=1')).events[0]!;
    assert.equal(byOperator.actor.email, operator.email);
    assert.deepEqual(byOperator.subject, { userId: leaving.userId, email: leaving.email });

    const deleted = await server.client.call('DELETE', '/api/v1/user', {
      token: leaving.token,
      body: { password: leaving.password },
    });
    assert.equal(deleted.status, 204, deleted.text);
    const gone = (await audit(`?type=user.deleted&pageSize=1`)).events[0]!;
    assert.equal(gone.actor.id, leaving.userId);
    assert.equal(gone.actor.email, null, 'user.deleted records no email, so none is shown');
    assert.deepEqual(gone.subject, { userId: leaving.userId, email: null });

    // A service key's acts name it by its name (it has no email).
    const keyActor = { kind: 'service-key' as const, id: 'nightly-sync', ip: null, userAgent: null };
    await services.repositories.events.record(
      toUserEvent('user.updated', keyActor, { ...project, id: leaving.userId }, new Date()),
    );
    const byKey = (await audit('?type=user.updated&pageSize=1')).events[0]!;
    assert.equal(byKey.actor.email, null);
    assert.equal(byKey.actor.name, 'nightly-sync');
    assert.deepEqual(byKey.subject, { userId: leaving.userId, email: null });
  });

  it('coffer audit prints the emails after the columns it had, and takes --limit as pageSize', async () => {
    const person = await server.client.signup(`cli-${process.hrtime.bigint()}@people.example`);
    const project = server.credentials.projectId;
    const page = await auditList(server.services.config, {
      project,
      filters: { type: 'user.created', actor: person.userId, pageSize: '1' },
    });
    assert.equal(page.events.length, 1);
    const line = toAuditLine(page.events[0]!);
    assert.match(line, new RegExp(`user\\.created  user:${person.userId}  \\S+  -  by ${person.email}$`));
  });

  it('takes pageSize from 1 to 100 and pages on with the cursor', async () => {
    const first = await audit('?pageSize=2');
    assert.equal(first.events.length, 2);
    assert.ok(first.nextCursor);
    const second = await audit(`?pageSize=2&cursor=${first.nextCursor}`);
    assert.equal(second.events.length, 2);
    for (const bad of ['0', '101', 'ten', '-1']) {
      const refused = await get(`?pageSize=${bad}`);
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 'VALIDATION_FAILED');
      assert.match(refused.body.message, /pageSize must be a whole number from 1 to 100/);
    }
  });

  it('refuses an unknown query parameter, naming the ones it takes', async () => {
    const refused = await get('?limit=5&type=user.*');
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'VALIDATION_FAILED');
    assert.match(refused.body.message, /Unknown query parameter "limit"/);
    assert.match(refused.body.message, /pageSize/);
  });
});
