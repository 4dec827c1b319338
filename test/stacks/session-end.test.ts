import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, runCli, startCofferProcess } from '../support/coffer-process.ts';
import { currentStackName } from '../support/test-stack.ts';
import { useTwoNodes } from '../support/two-nodes.ts';

/**
 * Ending a session ends its access tokens on every worker and node within one second (issue 23,
 * items 8 and 9; docs/security.md, "Sessions"). Each test makes the token known to work on every
 * process (each remembers its session as live), ends the session on one of them or from a CLI
 * process, then reads everywhere until a whole round sent more than one second after the end
 * has passed: every answer of that round must be the refusal.
 */

/** Requests per server and round: each on a fresh connection, so the primary spreads them over its workers. */
const requestsPerRound = 12;
/** The bound of issue 23, item 8. */
const endedWithinMs = 1000;
/** The reuse grace of these servers: short, so that its end comes soon. */
const graceSeconds = 2;

type Server = { name: string; client: ApiClient };

/** The profile call on every server, each on a fresh connection: 200 or the error code. */
async function readEverywhere(servers: Server[], token: string) {
  const answers: Array<string | number> = [];
  for (const server of servers)
    for (let i = 0; i < requestsPerRound; i++) {
      const answer = await server.client.call('GET', '/api/v1/user', {
        token,
        headers: { connection: 'close' },
      });
      answers.push(answer.status === 200 ? 200 : answer.body.code);
    }
  return answers;
}

async function assertWorksEverywhere(servers: Server[], token: string) {
  assert.deepEqual(new Set(await readEverywhere(servers, token)), new Set([200]));
}

/**
 * Reads everywhere until a round starts `endedWithinMs` after `endedAt`; that round must be
 * `expected` throughout (the rounds before it may still see the session live elsewhere).
 */
async function assertEndedEverywhere(servers: Server[], tokens: string[], endedAt: number, expected: string) {
  for (;;) {
    const startedAt = performance.now();
    const answers = (await Promise.all(tokens.map((token) => readEverywhere(servers, token)))).flat();
    if (startedAt - endedAt < endedWithinMs) continue;
    assert.deepEqual(new Set(answers), new Set([expected]), `${endedWithinMs} ms after the end`);
    return;
  }
}

function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

function describeSessionEnds(
  servers: () => Server[],
  admin: () => { env: Record<string, string>; dataDir: string; credentials: { projectId: string } },
) {
  const cli = (args: string[], input?: string) =>
    runCli([...args, '--data-dir', admin().dataDir], admin().env, { input });
  const first = () => servers()[0]!.client;
  const last = () => servers().at(-1)!.client;
  const login = async (email: string, password = 'correct horse battery') => {
    const answer = await first().call('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { token: string; refreshToken: string };
  };
  const refreshOn = (client: ApiClient, refreshToken: string) =>
    client.call('POST', '/api/v1/auth/refresh', { body: { refreshToken }, headers: { connection: 'close' } });

  it('logout, by bearer on one process or by refresh token on another, ends the session everywhere', async () => {
    const user = await first().signup();
    const other = await login(user.email);
    await assertWorksEverywhere(servers(), user.token);
    await assertWorksEverywhere(servers(), other.token);
    const byBearer = await last().call('POST', '/api/v1/auth/logout', { token: user.token });
    assert.equal(byBearer.status, 204, byBearer.text);
    await assertEndedEverywhere(servers(), [user.token], performance.now(), 'INVALID_TOKEN');
    await assertWorksEverywhere(servers(), other.token);
    const byBody = await first().call('POST', '/api/v1/auth/logout', {
      body: { refreshToken: other.refreshToken },
    });
    assert.equal(byBody.status, 204, byBody.text);
    await assertEndedEverywhere(servers(), [other.token], performance.now(), 'INVALID_TOKEN');
  });

  it('a password change ends every other session everywhere; the caller’s goes on', async () => {
    const user = await first().signup();
    const phone = await login(user.email);
    const laptop = await login(user.email);
    for (const token of [user.token, phone.token, laptop.token])
      await assertWorksEverywhere(servers(), token);
    const changed = await last().call('POST', '/api/v1/auth/password', {
      token: laptop.token,
      body: { oldPassword: user.password, newPassword: 'staple grease cartridge' },
    });
    assert.equal(changed.status, 204, changed.text);
    await assertEndedEverywhere(servers(), [user.token, phone.token], performance.now(), 'INVALID_TOKEN');
    await assertWorksEverywhere(servers(), laptop.token);
  });

  it('an operator’s password reset (CLI) ends every session everywhere', async () => {
    const user = await first().signup();
    const other = await login(user.email);
    await assertWorksEverywhere(servers(), user.token);
    await assertWorksEverywhere(servers(), other.token);
    const reset = await cli(
      ['user', 'reset-password', '--project', admin().credentials.projectId, user.userId, '--password-stdin'],
      'staple grease cartridge\n',
    );
    assert.equal(reset.code, 0, reset.stderr);
    await assertEndedEverywhere(servers(), [user.token, other.token], performance.now(), 'INVALID_TOKEN');
  });

  it('an account disabled or deleted (CLI) is refused everywhere', async () => {
    const { projectId } = admin().credentials;
    const disabled = await first().signup();
    const deleted = await first().signup();
    await assertWorksEverywhere(servers(), disabled.token);
    await assertWorksEverywhere(servers(), deleted.token);
    const disable = await cli(['user', 'disable', '--project', projectId, disabled.userId]);
    assert.equal(disable.code, 0, disable.stderr);
    await assertEndedEverywhere(servers(), [disabled.token], performance.now(), 'ACCOUNT_DISABLED');
    const remove = await cli(['user', 'delete', '--project', projectId, deleted.userId]);
    assert.equal(remove.code, 0, remove.stderr);
    await assertEndedEverywhere(servers(), [deleted.token], performance.now(), 'INVALID_TOKEN');
  });

  it('refreshes of one token, concurrent on every process, answer one successor; a reuse after the grace ends the session everywhere', async () => {
    const user = await first().signup();
    const refreshes = servers().flatMap((server) =>
      Array.from({ length: 4 }, () => refreshOn(server.client, user.refreshToken)),
    );
    const answers = await Promise.all(refreshes);
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    const successors = new Set(answers.map((answer) => answer.body.refreshToken as string));
    assert.equal(successors.size, 1, 'one successor');
    const [successor] = successors;
    assert.equal(new Set(answers.map((answer) => sessionOf(answer.body.token))).size, 1);
    const accessToken = answers[0]!.body.token as string;
    await assertWorksEverywhere(servers(), accessToken);
    // Until the grace ends, the spent token answers that successor again, wherever it is sent;
    // the first use after it revokes the family.
    for (let round = 0; ; round++) {
      assert.ok(round < 200, 'the grace never ended');
      const again = await refreshOn(servers()[round % servers().length]!.client, user.refreshToken);
      if (again.status !== 200) {
        assert.equal(again.body.code, 'INVALID_REFRESH_TOKEN');
        break;
      }
      assert.equal(again.body.refreshToken, successor);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await assertEndedEverywhere(servers(), [user.token, accessToken], performance.now(), 'INVALID_TOKEN');
    assert.equal((await refreshOn(last(), successor!)).body.code, 'INVALID_REFRESH_TOKEN');
  });
}

const env = { COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS: String(graceSeconds) };

describe(`sessions end on both workers of serve --workers 2 (${currentStackName()} stack)`, () => {
  let coffer: CofferProcess;
  before(async () => {
    coffer = await startCofferProcess({ args: ['--workers', '2'], env });
  });
  after(() => coffer?.stop());
  describeSessionEnds(
    () => [{ name: 'workers', client: coffer.client }],
    () => coffer,
  );
});

const skip = currentStackName() === 'pg-s3' ? false : 'needs shared stores: runs in the PostgreSQL + S3 pass';

describe('sessions end on two nodes on one PostgreSQL', { skip }, () => {
  const nodes = useTwoNodes({ argsB: ['--workers', '2'], env });
  describeSessionEnds(
    () => [
      { name: 'A', client: nodes.nodeA.client },
      { name: 'B', client: nodes.nodeB.client },
    ],
    () => nodes.nodeA,
  );
});
