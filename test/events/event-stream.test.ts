import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { EventStream, type EventStreamOptions } from '../../src/domain/events/event-stream.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

type Received = { id: string; type: string; body: { type: string; timestamp: string; data: Data } };
type Data = Record<string, unknown> & { fileId: string; creator: string };

/** GET /api/v1/events with plain fetch, read as the SSE wire format says (comments kept apart). */
async function openStream(client: ApiClient, token: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${client.baseUrl}/api/v1/events`, {
    headers: {
      'sb-app-id': client.credentials.appId,
      'sb-app-secret': client.credentials.appSecret,
      authorization: `Bearer ${token}`,
      ...headers,
    },
    signal: controller.signal,
  });
  assert.equal(response.status, 200, response.status === 200 ? '' : await response.text());
  const events: Received[] = [];
  const comments: string[] = [];
  const lines: string[] = [];
  let ended = false;
  const read = async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line !== '') lines.push(line);
        else if (lines.some((field) => field.startsWith('data: '))) {
          const field = (name: string) =>
            lines.find((one) => one.startsWith(`${name}: `))?.slice(name.length + 2);
          events.push({ id: field('id')!, type: field('event')!, body: JSON.parse(field('data')!) });
          lines.length = 0;
        } else lines.length = 0;
      }
    }
  };
  read()
    .catch(() => {})
    .finally(() => {
      ended = true;
    });
  return {
    response,
    events,
    comments,
    hasEnded: () => ended,
    close: () => controller.abort(),
    /** The first event that matches, once it is here. */
    next: (match: (event: Received) => boolean, what: string) => waitFor(() => events.find(match), what),
  };
}

async function waitFor<T>(read: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const about = (fileId: string, type: string) => (event: Received) =>
  event.body.data.fileId === fileId && event.type === type;

/** Runs the server's routes on a hub with other options (a short heartbeat) until restore(). */
function useHub(server: TestServer, options: Partial<EventStreamOptions>) {
  const original = server.services.eventStream;
  const hub = new EventStream({
    log: server.services.repositories.events,
    files: server.services.repositories.files,
    ...options,
  });
  server.services.eventStream = hub;
  return {
    hub,
    restore() {
      hub.close();
      server.services.eventStream = original;
    },
  };
}

/** PostgreSQL: a transaction with a transaction id, held open from begin() until end(). */
function holdTransaction(server: TestServer) {
  let release = () => {};
  let done: Promise<void> = Promise.resolve();
  return {
    begin: () =>
      new Promise<void>((begun, failed) => {
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        done = server.services.database.db.transaction().execute(async (trx) => {
          await sql`select pg_current_xact_id()`.execute(trx);
          begun();
          await held;
        });
        done.catch(failed);
      }),
    end: async () => {
      release();
      await done;
    },
  };
}

/** Issue 22: GET /api/v1/events, over real HTTP, on both stacks. */
describe('GET /api/v1/events', () => {
  let server: TestServer;
  type User = Awaited<ReturnType<ApiClient['signup']>>;
  let alice: User;
  let bob: User;
  let carol: User;
  before(async () => {
    server = await startTestServer();
    alice = await server.client.signup();
    bob = await server.client.signup();
    carol = await server.client.signup();
  });
  after(() => server?.stop());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.client.call(method, path, { token, body }).then((answer) => {
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
      return answer;
    });
  const share = (fileId: string, userId: string) =>
    call('POST', `/api/v1/file/${fileId}/acl/user/${userId}`, alice.token);
  const unshare = (fileId: string, userId: string) =>
    call('DELETE', `/api/v1/file/${fileId}/acl/user/${userId}`, alice.token);
  const touch = (fileId: string, token = alice.token) =>
    call('PATCH', `/api/v1/file/${fileId}`, token, { customData: { at: Math.random() } });
  const upload = async (token: string, filePath: string, permissionScope = 'user') =>
    (await server.client.uploadFile(token, filePath, 'stream me', { permissionScope }))._id;

  it('needs a token; answers an event stream that proxies neither cache nor buffer', async () => {
    const refused = await server.client.call('GET', '/api/v1/events');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'AUTH_REQUIRED');
    const stream = await openStream(server.client, bob.token);
    try {
      assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.match(stream.response.headers.get('cache-control') ?? '', /\bno-cache\b/);
      assert.equal(stream.response.headers.get('x-accel-buffering'), 'no');
    } finally {
      stream.close();
    }
    // A browser: its allowed origin instead of the secret, and the CORS answer on the stream.
    const origin = 'https://app.example';
    const browserProject = await server.createProject('stream-browser', [origin]);
    const { token } = await browserProject.signup();
    const response = await fetch(`${server.baseUrl}/api/v1/events`, {
      headers: { 'sb-app-id': browserProject.credentials.appId, origin, authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), origin);
    await response.body?.cancel();
  });

  it("hands a reader the events of the files it may read, none after it is unshared, and a stranger none of alice's", async () => {
    const bobs = await openStream(server.client, bob.token);
    const carols = await openStream(server.client, carol.token);
    try {
      const shared = await upload(alice.token, 'stream/shared.txt');
      await share(shared, bob.userId);
      const sharedEvent = await bobs.next(about(shared, 'file.shared'), 'file.shared for bob');
      assert.match(sharedEvent.id, /^evt_[0-9A-Z]{26}$/);
      assert.equal(sharedEvent.body.type, 'file.shared');
      assert.match(sharedEvent.body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(sharedEvent.body.data.entry, { scope: 'user', identifier: bob.userId });
      assert.deepEqual(sharedEvent.body.data.actor, { kind: 'user', id: alice.userId });
      // The actor's address and user agent stay in the audit log.
      assert.doesNotMatch(JSON.stringify(sharedEvent.body), /127\.0\.0\.1|userAgent|"ip"/);
      await touch(shared);
      await bobs.next(about(shared, 'file.updated'), 'file.updated for bob');

      await unshare(shared, bob.userId);
      await touch(shared);
      // A later event of a file bob may read: once it is here, the ones before it were passed over.
      const other = await upload(alice.token, 'stream/other.txt');
      await share(other, bob.userId);
      await bobs.next(about(other, 'file.shared'), 'file.shared of the other file');
      const ofShared = bobs.events.filter((event) => event.body.data.fileId === shared);
      // file.uploaded may have been read with the share, in one batch: the share decided then.
      assert.deepEqual(
        ofShared.map((event) => event.type).filter((type) => type !== 'file.uploaded'),
        ['file.shared', 'file.updated'],
      );

      const own = await upload(carol.token, 'stream/carol.txt');
      await carols.next(about(own, 'file.uploaded'), "carol's own upload");
      assert.deepEqual(
        carols.events.map((event) => event.body.data.creator),
        carols.events.map(() => carol.userId),
        "carol got only her own file's events",
      );
    } finally {
      bobs.close();
      carols.close();
    }
  });

  it('reconnecting with Last-Event-ID replays exactly the missed events bob may read, in order', async () => {
    const first = await openStream(server.client, bob.token);
    const readable = await upload(alice.token, 'replay/readable.txt');
    await share(readable, bob.userId);
    const seen = await first.next(about(readable, 'file.shared'), 'the share');
    first.close();

    await touch(readable);
    const secret = await upload(alice.token, 'replay/secret.txt');
    await touch(readable);
    await touch(secret);
    const open = await upload(alice.token, 'replay/open.txt', '*');
    const again = await openStream(server.client, bob.token, { 'last-event-id': seen.id });
    try {
      await touch(readable);
      await waitFor(() => again.events.length >= 4, 'the replay and one live event');
      assert.deepEqual(
        again.events.map((event) => [event.type, event.body.data.fileId]),
        [
          ['file.updated', readable],
          ['file.updated', readable],
          ['file.uploaded', open],
          ['file.updated', readable],
        ],
      );
      assert.equal(new Set(again.events.map((event) => event.id)).size, 4);
      assert.ok(!again.events.some((event) => event.id === seen.id));
      assert.ok(!again.comments.some((comment) => comment.startsWith('history unavailable')));
    } finally {
      again.close();
    }
  });

  it('PostgreSQL: a replay waits for events an older open transaction still hides, and skips none', async (t) => {
    if (server.services.database.dialect !== 'postgres') return t.skip('PostgreSQL only');
    // The real event log, its reads recorded: the replay's first read is to come back empty.
    const events = server.services.repositories.events;
    const reads: { afterSeq: number; found: number }[] = [];
    const log = new Proxy(events, {
      get(target, name) {
        if (name === 'readAfter')
          return async (projectId: string, afterSeq: number, limit: number) => {
            const found = await target.readAfter(projectId, afterSeq, limit);
            reads.push({ afterSeq, found: found.length });
            return found;
          };
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const swapped = useHub(server, { log });
    const transaction = holdTransaction(server);
    try {
      const first = await openStream(server.client, bob.token);
      const readable = await upload(alice.token, 'horizon/readable.txt');
      await share(readable, bob.userId);
      const seen = await first.next(about(readable, 'file.shared'), 'the share');
      first.close();
      // With no stream left, the next one opens the project's reading at the latest seq.
      await waitFor(() => !swapped.hub.isReading(server.credentials.projectId), 'the first stream to go');
      const seenSeq = (await events.findById(server.credentials.projectId, seen.id))!.seq;
      // A transaction that began before the next events and is still open: readAfter may not
      // show them (a smaller seq could still commit), though the latest seq already counts them.
      await transaction.begin();
      await touch(readable);
      await touch(readable);
      const again = await openStream(server.client, bob.token, { 'last-event-id': seen.id });
      try {
        await waitFor(
          () => reads.some((read) => read.afterSeq === seenSeq && read.found === 0),
          'the replay to find nothing readable yet',
        );
        await transaction.end();
        await touch(readable);
        await waitFor(() => again.events.length >= 3, 'the replay and one live event');
        assert.deepEqual(
          again.events.map((event) => event.type),
          ['file.updated', 'file.updated', 'file.updated'],
        );
      } finally {
        again.close();
      }
    } finally {
      await transaction.end();
      swapped.restore();
    }
  });

  it('an unknown or malformed Last-Event-ID says the history is lost, then streams news', async () => {
    const readable = await upload(alice.token, 'lost/readable.txt', '*');
    for (const lastEventId of ['evt_00000000000000000000000000', 'not an event id']) {
      const stream = await openStream(server.client, bob.token, { 'last-event-id': lastEventId });
      try {
        await waitFor(
          () => stream.comments.some((comment) => comment.startsWith('history unavailable')),
          'the notice',
        );
        await touch(readable);
        await stream.next(about(readable, 'file.updated'), 'news after the notice');
        assert.ok(!stream.events.some((event) => event.type === 'file.uploaded'), 'no history');
      } finally {
        stream.close();
      }
    }
  });

  it('sends heartbeats as comment lines', async () => {
    const swapped = useHub(server, { heartbeatIntervalMs: 50 });
    try {
      const stream = await openStream(server.client, bob.token);
      await waitFor(
        () => stream.comments.filter((comment) => comment === 'heartbeat').length >= 2,
        'heartbeats',
      );
      stream.close();
    } finally {
      swapped.restore();
    }
  });

  it('a closed stream leaves the hub, which stops reading the project it was the last of', async () => {
    const project = await server.createProject('stream-close');
    const { token } = await project.signup();
    const { projectId } = project.credentials;
    const hub = server.services.eventStream;
    const stream = await openStream(project, token);
    assert.equal(hub.countSubscriptions(projectId), 1);
    assert.equal(hub.isReading(projectId), true);
    stream.close();
    await waitFor(() => !hub.isReading(projectId), 'the hub to stop reading the project');
    assert.equal(hub.countSubscriptions(projectId), 0);
  });
});

describe('GET /api/v1/events: a stream ends when its reader may no longer read', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let swapped: ReturnType<typeof useHub>;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    swapped = useHub(server, { heartbeatIntervalMs: 50 });
  });
  after(async () => {
    swapped?.restore();
    await server?.stop();
  });

  it('at the expiry of its token', async () => {
    const { token } = await server.client.signup();
    const stream = await openStream(server.client, token);
    clock.advance(server.services.config.tokenTtlSeconds + 1);
    await waitFor(() => stream.hasEnded(), 'the stream to end');
    assert.ok(stream.comments.includes('stream ended (unauthorized)'), stream.comments.join('|'));
    const again = await server.client.call('GET', '/api/v1/events', { token });
    assert.equal(again.body.code, 'TOKEN_EXPIRED');
  });

  it('when its account is disabled', async () => {
    const { token, userId } = await server.client.signup();
    const stream = await openStream(server.client, token);
    await server.services.repositories.users.setEnabled(server.credentials.projectId, userId, false);
    await waitFor(() => stream.hasEnded(), 'the stream to end');
    assert.ok(stream.comments.includes('stream ended (unauthorized)'), stream.comments.join('|'));
  });
});

describe('GET /api/v1/events: a stream ends with its token and its session, not at a heartbeat', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let swapped: ReturnType<typeof useHub>;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
    // Heartbeats an hour apart: whatever ends a stream here, it is not one.
    swapped = useHub(server, { heartbeatIntervalMs: 3_600_000, clock });
  });
  after(async () => {
    swapped?.restore();
    await server?.stop();
  });

  it("ends at its token's expiry", async () => {
    const { token } = await server.client.signup();
    const stream = await openStream(server.client, token);
    // The token works up to its exp; at exp the stream ends (issue 35, item 8).
    clock.advance(server.services.config.tokenTtlSeconds);
    await waitFor(() => stream.hasEnded(), 'the stream to end at the expiry');
    assert.ok(stream.comments.includes('stream ended (unauthorized)'), stream.comments.join('|'));
  });

  it('ends at the logout of its session', async () => {
    const { token, refreshToken } = await server.client.signup();
    const stream = await openStream(server.client, token);
    const other = await server.client.signup();
    const bystander = await openStream(server.client, other.token);
    const logout = await server.client.call('POST', '/api/v1/auth/logout', { body: { refreshToken } });
    assert.equal(logout.status, 204, logout.text);
    await waitFor(() => stream.hasEnded(), 'the stream to end at logout');
    assert.ok(stream.comments.includes('stream ended (unauthorized)'), stream.comments.join('|'));
    assert.equal(bystander.hasEnded(), false, "another session's stream goes on");
    bystander.close();
  });
});

describe('GET /api/v1/events with a service key', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('streams every file event of its project, and ends when the key is revoked (issue 35)', async () => {
    const key = await server.createServiceKey();
    const stream = await openStream(server.client, key);
    const { token } = await server.client.signup();
    const file = await server.client.uploadFile(token, 'keys/seen.txt', 'seen by the backend');
    await stream.next(
      (event) => event.type === 'file.uploaded' && event.body.data.fileId === file._id,
      'the upload',
    );
    const { projectId } = server.credentials;
    const [newest] = (await server.services.repositories.serviceKeys.listByProject(projectId)).slice(-1);
    assert.ok(await server.services.repositories.serviceKeys.delete(projectId, newest!.name));
    await waitFor(() => stream.hasEnded(), 'the stream to end at the revoke');
    assert.ok(stream.comments.includes('stream ended (unauthorized)'), stream.comments.join('|'));
  });
});

describe('GET /api/v1/events: streams per user and per client address', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(
      {},
      { COFFER_EVENT_STREAMS_PER_USER: '2', COFFER_EVENT_STREAMS_PER_ADDRESS: '3' },
    );
  });
  after(() => server?.stop());

  const refused = async (token: string) => {
    const answer = await server.client.call('GET', '/api/v1/events', { token });
    assert.equal(answer.status, 429, answer.text);
    assert.equal(answer.body.code, 'RATE_LIMITED');
    assert.ok(Number(answer.headers.get('retry-after')) >= 1);
  };

  it('a user past COFFER_EVENT_STREAMS_PER_USER gets 429 until one of theirs ends; an address past its cap too', async () => {
    const alice = await server.client.signup();
    const first = await openStream(server.client, alice.token);
    const second = await openStream(server.client, alice.token);
    await refused(alice.token);
    first.close();
    const hub = server.services.eventStream;
    const { projectId } = server.credentials;
    await waitFor(() => hub.countSubscriptions(projectId) === 1, 'the closed stream to leave');
    const third = await openStream(server.client, alice.token);
    // Every user here comes from 127.0.0.1: the address's third stream is bob's first, the fourth is refused.
    const bob = await server.client.signup();
    const bobs = await openStream(server.client, bob.token);
    await refused(bob.token);
    for (const stream of [second, third, bobs]) stream.close();
  });
});

describe('GET /api/v1/events: a closing server', () => {
  it('ends its streams instead of waiting for them, and refuses new ones', async () => {
    const server = await startTestServer();
    try {
      const { token } = await server.client.signup();
      const stream = await openStream(server.client, token);
      await server.beginClose();
      await waitFor(() => stream.hasEnded(), 'the stream to end');
      assert.ok(stream.comments.includes('stream ended (closed)'), stream.comments.join('|'));
      await assert.rejects(
        server.services.eventStream.subscribe({
          projectId: server.credentials.projectId,
          authorize: async () => undefined,
        }),
        /UNAVAILABLE|unavailable/,
      );
    } finally {
      await server.stop();
    }
  });
});
