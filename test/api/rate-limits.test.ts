import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/domain/clock.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** Real time plus an offset the test moves forward: buckets refill without sleeping. */
function movableClock() {
  let offsetMs = 0;
  const clock: Clock & { advanceSeconds(seconds: number): void } = {
    now: () => new Date(Date.now() + offsetMs),
    advanceSeconds: (seconds) => {
      offsetMs += seconds * 1000;
    },
  };
  return clock;
}

const hour = 3600;

/** 429 in the error shape, with a Retry-After of at least 1 s and at most `maxSeconds`. */
function assertLimited(response: ApiResponse, maxSeconds: number): number {
  assert.equal(response.status, 429, response.text);
  assert.deepEqual(Object.keys(response.body).sort(), ['code', 'error', 'message', 'statusCode']);
  assert.equal(response.body.code, 'RATE_LIMITED');
  const retryAfter = Number(response.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter), `Retry-After ${response.headers.get('retry-after')}`);
  assert.ok(retryAfter >= 1 && retryAfter <= maxSeconds, `Retry-After ${retryAfter} not in 1..${maxSeconds}`);
  return retryAfter;
}

const login = (client: ApiClient, from: string, email: string, password: string) =>
  client.call('POST', '/api/v1/auth/login', { body: { email, password }, localAddress: from });

describe('failed logins: per account and address, per account, per address', () => {
  // Per account and address: 3 an hour (one back every 1200 s); per account: 5 (every 720 s);
  // per address: 8 (every 450 s).
  const limits = { pair: 3, account: 5, address: 8 };
  const clock = movableClock();
  let server: TestServer;
  let owner: { email: string; password: string };
  const bucketRows = async () =>
    Number(
      (
        await server.services.database.db
          .selectFrom('rate_limit_buckets')
          .select((eb) => eb.fn.countAll().as('rows'))
          .executeTakeFirstOrThrow()
      ).rows,
    );
  const newOwner = async (name: string) => {
    owner = await server.client.signup(`${name}-${Math.random().toString(36).slice(2)}@example.com`);
    return owner;
  };
  const guess = (from: string, email = owner.email) => login(server.client, from, email, 'wrong password');
  const rightPassword = (from: string) => login(server.client, from, owner.email, owner.password);

  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: String(limits.pair),
        COFFER_LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: String(limits.account),
        COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: String(limits.address),
      },
      { clock },
    );
  });
  after(() => server.stop());

  it("lets the owner in from another address while an attacker's address is limited", async () => {
    await newOwner('owner');
    for (let i = 0; i < limits.pair; i++) assert.equal((await guess('127.0.0.2')).body.code, 'INVALID_LOGIN');
    const retryAfter = assertLimited(await guess('127.0.0.2'), hour / limits.pair);
    // The right password from the limited address is refused too: a 429 must not tell.
    assertLimited(await rightPassword('127.0.0.2'), hour / limits.pair);
    assert.equal((await rightPassword('127.0.0.3')).status, 200);
    // Retry-After is honest: one more guess then, and only one.
    clock.advanceSeconds(retryAfter);
    assert.equal((await guess('127.0.0.2')).body.code, 'INVALID_LOGIN');
    assertLimited(await guess('127.0.0.2'), hour / limits.pair);
  });

  it('slows guessing spread over many addresses to one per refill, and the owner waits no longer', async () => {
    await newOwner('sprayed');
    const spray = ['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4', '127.0.1.5'];
    for (const from of spray) assert.equal((await guess(from)).body.code, 'INVALID_LOGIN');
    // The account has no failure left: fresh addresses, and the owner, are refused.
    assertLimited(await guess('127.0.1.6'), hour / limits.account);
    const wait = assertLimited(await rightPassword('127.0.1.7'), hour / limits.account);
    clock.advanceSeconds(wait);
    assert.equal((await rightPassword('127.0.1.7')).status, 200);
    // From then on the spray gets one guess per refill, whatever the address.
    for (const [first, second] of [
      ['127.0.1.8', '127.0.1.9'],
      ['127.0.1.10', '127.0.1.11'],
    ] as const) {
      assert.equal((await guess(first)).body.code, 'INVALID_LOGIN');
      assertLimited(await guess(second), hour / limits.account);
      clock.advanceSeconds(hour / limits.account);
    }
  });

  it('limits one address guessing on many accounts, not other addresses', async () => {
    const emails = Array.from({ length: limits.address + 1 }, (_, i) => `nobody-${i}@example.com`);
    for (const email of emails.slice(0, limits.address))
      assert.equal((await guess('127.0.2.1', email)).body.code, 'INVALID_LOGIN');
    assertLimited(await guess('127.0.2.1', emails.at(-1)), hour / limits.address);
    assert.equal((await guess('127.0.2.2', emails.at(-1))).body.code, 'INVALID_LOGIN');
  });

  it('counts parallel guesses before checking them: no burst gets past the limit', async () => {
    await newOwner('parallel');
    const answers = await Promise.all(Array.from({ length: 20 }, () => guess('127.0.3.1')));
    const codes = answers.map((answer) => answer.body.code);
    assert.deepEqual(new Set(codes), new Set(['INVALID_LOGIN', 'RATE_LIMITED']));
    // One attempt per process may start before any failure is recorded (docs/decisions.md).
    const guesses = codes.filter((code) => code === 'INVALID_LOGIN').length;
    assert.ok(guesses <= limits.pair + 1, `${guesses} guesses got through`);
  });

  it('a success forgives that address its failures; a clean success writes nothing', async () => {
    await newOwner('forgiven');
    for (let i = 0; i < limits.pair - 1; i++) await guess('127.0.4.1');
    assert.equal((await rightPassword('127.0.4.1')).status, 200);
    for (let i = 0; i < limits.pair; i++) assert.equal((await guess('127.0.4.1')).body.code, 'INVALID_LOGIN');
    assertLimited(await guess('127.0.4.1'), hour / limits.pair);
    await newOwner('clean');
    const rows = await bucketRows();
    assert.equal((await rightPassword('127.0.4.2')).status, 200);
    assert.equal(await bucketRows(), rows);
  });

  it('expired buckets are deleted a few at a time by later writes', async () => {
    clock.advanceSeconds(2 * hour); // every bucket so far is full again
    await newOwner('sweeper');
    const stale = await bucketRows();
    assert.ok(stale >= 12, `${stale} rows`);
    // Each failure writes at most 3 rows and deletes up to 6 expired ones.
    await guess('127.0.5.1');
    assert.equal(await bucketRows(), stale + 3 - 6);
    await guess('127.0.5.1');
    assert.equal(await bucketRows(), stale + 3 - 12);
  });
});

describe('signups: per client address and per app', () => {
  const limits = { address: 3, app: 6 };
  const clock = movableClock();
  let server: TestServer;
  let app: ApiClient;
  const signup = (
    client: ApiClient,
    from: string,
    email = `${Math.random().toString(36).slice(2)}@example.com`,
  ) =>
    client.call('POST', '/api/v1/auth/signup', {
      body: { email, password: 'correct horse battery' },
      localAddress: from,
    });

  before(async () => {
    server = await startTestServer(
      {},
      {
        COFFER_SIGNUPS_PER_ADDRESS_PER_HOUR: String(limits.address),
        COFFER_SIGNUPS_PER_APP_PER_HOUR: String(limits.app),
      },
      { clock },
    );
    app = await server.createProject('signups-per-app');
  });
  after(() => server.stop());

  it('limits signups per client address, refused ones included', async () => {
    assert.equal((await signup(server.client, '127.0.6.1', 'taken@example.com')).status, 200);
    assert.equal((await signup(server.client, '127.0.6.1', 'taken@example.com')).body.code, 'EMAIL_TAKEN');
    assert.equal((await signup(server.client, '127.0.6.1')).status, 200);
    const retryAfter = assertLimited(await signup(server.client, '127.0.6.1'), hour / limits.address);
    assert.equal((await signup(server.client, '127.0.6.2')).status, 200);
    clock.advanceSeconds(retryAfter);
    assert.equal((await signup(server.client, '127.0.6.1')).status, 200);
    assertLimited(await signup(server.client, '127.0.6.1'), hour / limits.address);
  });

  it('limits signups per app, over every address, and not other apps', async () => {
    for (let i = 1; i <= limits.app; i++) assert.equal((await signup(app, `127.0.7.${i}`)).status, 200);
    const retryAfter = assertLimited(await signup(app, '127.0.7.100'), hour / limits.app);
    assert.equal((await signup(server.client, '127.0.7.100')).status, 200);
    clock.advanceSeconds(retryAfter);
    assert.equal((await signup(app, '127.0.7.101')).status, 200);
  });
});

describe('login limits are shared by every worker (serve --workers 2)', () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess({
      args: ['--workers', '2'],
      env: { COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR: '3' },
    });
  });
  after(() => coffer?.stop());

  it('counts failures on every worker together', async () => {
    const owner = await coffer.client.signup();
    // A new connection per request (localAddress sends each on its own), so the primary
    // hands them to both workers in turn.
    const guess = () => login(coffer.client, '127.0.0.1', owner.email, 'wrong password');
    for (let i = 0; i < 3; i++) assert.equal((await guess()).body.code, 'INVALID_LOGIN');
    for (let i = 0; i < 6; i++) assertLimited(await guess(), hour / 3);
    assert.equal((await login(coffer.client, '127.0.0.2', owner.email, owner.password)).status, 200);
  });
});
