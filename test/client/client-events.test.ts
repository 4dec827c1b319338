import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CofferClient, type CofferEvent } from '../../packages/client/src/index.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';

/**
 * A TCP proxy to the server that can go down: cut() destroys every connection through it and
 * refuses new ones until restore(), as a network that drops and comes back.
 */
async function startSwitchingProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let up = true;
  let connections = 0;
  const server = createServer((client) => {
    if (!up) return void client.destroy();
    connections += 1;
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}); // a cut connection errors on the other side
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => connections,
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      up = true;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
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

/** Iterates client.events() in the background into `received`, until `stop()`. */
function consume(client: CofferClient) {
  const controller = new AbortController();
  const received: CofferEvent[] = [];
  const done = (async () => {
    for await (const event of client.events({ signal: controller.signal })) received.push(event);
  })();
  return {
    received,
    done,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

const summary = (events: CofferEvent[]) => events.map((event) => `${event.type} ${event.data.fileId}`);

async function signedUpClient(server: TestServer, project: ApiClient, baseUrl = server.baseUrl) {
  const { appId, appSecret } = project.credentials;
  const client = new CofferClient({ baseUrl, appId, appSecret });
  await client.signup({
    email: `${Math.random().toString(36).slice(2)}@events.example`,
    password: 'correct horse',
  });
  return client;
}

// @coffer/client's events() (issue 22) against a real server, through a real network cut.
describe('@coffer/client events()', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('iterates the events of the files the user may read; aborting the signal ends it', async () => {
    const project = await server.createProject('client-events');
    const { projectId } = project.credentials;
    const client = await signedUpClient(server, project);
    const stream = consume(client);
    await waitFor(() => server.services.eventStream.countSubscriptions(projectId) === 1, 'the stream');
    const file = await client.upload('events/hello.txt', 'hello');
    const event = await waitFor(
      () => stream.received.find((one) => one.data.fileId === file._id),
      'the file.uploaded event',
    );
    assert.equal(event.type, 'file.uploaded');
    assert.match(event.id, /^evt_[0-9A-Z]{26}$/);
    assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(event.data.filePath, 'events/hello.txt');
    await stream.stop();
    await waitFor(() => !server.services.eventStream.isReading(projectId), 'the server to let the stream go');
  });

  it('resumes after the connection is cut, without losing or repeating an event', async () => {
    const proxy = await startSwitchingProxy(server.baseUrl);
    const project = await server.createProject('client-events-cut');
    const { projectId } = project.credentials;
    const hub = server.services.eventStream;
    const client = await signedUpClient(server, project, proxy.url);
    const token = client.session!.token;
    const touch = (fileId: string) =>
      project.call('PATCH', `/api/v1/file/${fileId}`, { token, body: { customData: { n: Math.random() } } });
    const stream = consume(client);
    try {
      await waitFor(() => hub.countSubscriptions(projectId) === 1, 'the stream');
      const first = (await project.uploadFile(token, 'cut/first.txt', 'one'))._id;
      await waitFor(() => stream.received.length === 1, 'the first event');

      proxy.cut();
      await waitFor(() => hub.countSubscriptions(projectId) === 0, 'the server to see the cut');
      // While the client cannot reach the server:
      await touch(first);
      const second = (await project.uploadFile(token, 'cut/second.txt', 'two'))._id;
      proxy.restore();

      await waitFor(() => hub.countSubscriptions(projectId) === 1, 'the client to reconnect');
      await touch(second);
      const last = (await project.uploadFile(token, 'cut/last.txt', 'three'))._id;
      await waitFor(() => stream.received.some((event) => event.data.fileId === last), 'the last event');
      assert.deepEqual(summary(stream.received), [
        `file.uploaded ${first}`,
        `file.updated ${first}`,
        `file.uploaded ${second}`,
        `file.updated ${second}`,
        `file.uploaded ${last}`,
      ]);
      assert.equal(new Set(stream.received.map((event) => event.id)).size, 5);
      assert.ok(proxy.connections() >= 2, 'the client connected again');
    } finally {
      await stream.stop();
      await proxy.stop();
    }
  });
});

describe('@coffer/client events(): a token that expires mid-stream', () => {
  const clock = new ManualClock();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, {}, { clock });
  });
  after(() => server?.stop());

  it('is refreshed, and the event that found it expired still arrives', async () => {
    const { projectId } = server.credentials;
    const client = await signedUpClient(server, server.client);
    const stream = consume(client);
    try {
      await waitFor(() => server.services.eventStream.countSubscriptions(projectId) === 1, 'the stream');
      const before = await client.upload('expiry/before.txt', 'before');
      await waitFor(() => stream.received.length === 1, 'the first event');
      const expired = client.session!.token;
      clock.advance(server.services.config.tokenTtlSeconds + 1);
      // The reader is checked again at this event: the stream ends without it, and the client
      // comes back with a refreshed token and the id of the event before.
      const file = await client.upload('expiry/after.txt', 'after');
      await waitFor(() => stream.received.some((event) => event.data.fileId === file._id), 'the event');
      assert.notEqual(client.session!.token, expired, 'the session was refreshed');
      assert.deepEqual(summary(stream.received), [
        `file.uploaded ${before._id}`,
        `file.uploaded ${file._id}`,
      ]);
    } finally {
      await stream.stop();
    }
  });
});
