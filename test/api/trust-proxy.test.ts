import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

// Issue 25, item 4: behind --trust-proxy, the address that limits count is the one a trusted
// proxy saw, never an X-Forwarded-For entry the client wrote. These servers are reached on
// loopback, so the "proxy" is the loopback peer itself: the last X-Forwarded-For entry is the
// one it appended (nginx's $proxy_add_x_forwarded_for), everything before it came from the
// client (or from proxies further out).

/** Three failed logins per account and address an hour, and room for everything else. */
const limits = {
  COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '3',
  COFFER_LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '100',
  COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: '100',
  COFFER_SIGNUPS_PER_ADDRESS_PER_HOUR: '2',
};

/** What a client hopes the server counts it as: a new address on every request. */
const forged = (attempt: number) => `203.0.113.${attempt + 1}, 192.0.2.${attempt + 1}`;

type Forwarding = { 'x-forwarded-for': string; 'x-forwarded-proto'?: string };

async function withServer(trustProxy: string | boolean, test: (server: TestServer) => Promise<void>) {
  const server = await startTestServer({ 'trust-proxy': trustProxy }, limits);
  try {
    await test(server);
  } finally {
    await server.stop();
  }
}

/**
 * Three failed logins through `forwarded` (each with other entries the client wrote), then the
 * owner's right password the same way: refused, as the limit counted one address throughout.
 * The same password from `elsewhere` (another client behind the same proxies) is let in.
 */
async function assertLoginsCountedTogether(
  server: TestServer,
  forwarded: (attempt: number) => Forwarding,
  elsewhere: Forwarding,
): Promise<void> {
  const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
  const login = (password: string, headers: Forwarding) =>
    server.client.call('POST', '/api/v1/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-proto': 'https', ...headers },
    });
  const signedUp = await server.client.call('POST', '/api/v1/auth/signup', {
    body: { email, password: 'correct horse' },
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.200' },
  });
  assert.equal(signedUp.status, 200, signedUp.text);
  for (let attempt = 0; attempt < 3; attempt++) {
    const guess = await login('wrong password', forwarded(attempt));
    assert.equal(guess.body.code, 'INVALID_LOGIN', guess.text);
  }
  const limited = await login('wrong password', forwarded(3));
  assert.equal(limited.status, 429, `${limited.text}: forged entries escaped the limit`);
  assert.equal(limited.body.code, 'RATE_LIMITED');
  assert.equal((await login('correct horse', forwarded(4))).status, 429);
  assert.equal((await login('correct horse', elsewhere)).status, 200, 'another client is not locked out');
}

describe('--trust-proxy: clients cannot choose the address the limits count', () => {
  it('bare (one proxy): the entry the proxy appended counts, not the ones before it', async () => {
    await withServer(true, (server) =>
      assertLoginsCountedTogether(
        server,
        (attempt) => ({ 'x-forwarded-for': `${forged(attempt)}, 198.51.100.7` }),
        { 'x-forwarded-for': `${forged(9)}, 198.51.100.8` },
      ),
    );
  });

  it('bare: forged entries do not escape the per-address signup limit', async () => {
    await withServer(true, async (server) => {
      const signup = (attempt: number) =>
        server.client.call('POST', '/api/v1/auth/signup', {
          body: { email: `new-${attempt}@example.com`, password: 'correct horse' },
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': `${forged(attempt)}, 198.51.100.9` },
        });
      assert.equal((await signup(0)).status, 200);
      assert.equal((await signup(1)).status, 200);
      const third = await signup(2);
      assert.equal(third.status, 429, third.text);
      assert.equal(third.body.code, 'RATE_LIMITED');
    });
  });

  // Client-written entries, the client as the load balancer saw it, the load balancer (one of
  // several) as nginx saw it.
  const throughLoadBalancer = (attempt: number) => ({
    'x-forwarded-for': `${forged(attempt)}, 198.51.100.7, 10.0.0.${attempt + 2}`,
  });
  const anotherClientThroughLoadBalancer = { 'x-forwarded-for': `${forged(9)}, 198.51.100.8, 10.0.0.2` };

  it('2 (a load balancer in front of nginx): the address the load balancer saw counts', async () => {
    await withServer('2', (server) =>
      assertLoginsCountedTogether(server, throughLoadBalancer, anotherClientThroughLoadBalancer),
    );
  });

  it('by address: only the listed proxies are walked past', async () => {
    await withServer('127.0.0.1,10.0.0.0/8', (server) =>
      assertLoginsCountedTogether(server, throughLoadBalancer, anotherClientThroughLoadBalancer),
    );
  });

  it('by address: a peer that is no listed proxy is a client, whatever headers it sends', async () => {
    await withServer('10.0.0.0/8', async (server) => {
      const call = await server.client.call('GET', '/api/v1/user', {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' },
      });
      assert.equal(call.status, 403, call.text);
      assert.equal(call.body.code, 'HTTPS_REQUIRED');
    });
  });
});
