import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { openStores } from '../../src/wiring/open-stores.ts';
import type { ApiClient } from '../support/api-client.ts';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';

/**
 * Secrets stay secret: the whole flow (signup, login, failed logins, refused tokens, uploads,
 * verify, share, downloads, bad links, secrets put where they do not belong) against
 * `coffer serve` at trace, pino's most verbose level (it logs everything debug does, and
 * more); then no log line may hold a password, an app secret, a token, a link signature, an
 * S3 signature or credential, a signing key or a stored hash.
 */
describe('secrets stay secret: every log line of a whole flow at trace level', () => {
  let coffer: CofferProcess;
  let log: string;
  /** What must never be logged, by what it is. */
  const secrets = new Map<string, { what: string; random: boolean }>();
  const keep: Keep = (what, value, random = true) => {
    assert.ok(value, `${what} is missing`);
    secrets.set(value, { what, random });
  };

  before(async () => {
    coffer = await startCofferProcess({ args: ['--log-level', 'trace'] });
    try {
      await playFlow(coffer, keep);
      await keepStoredSecrets(coffer, keep);
    } finally {
      await coffer.stop(); // every line is written once the process has exited
    }
    log = coffer.output();
  });

  it('logs the flow (the search below has something to search)', () => {
    for (const line of [
      '/api/v1/auth/login',
      '/api/v1/auth/signup',
      '/verify',
      '/blob/v1/files/',
      '"statusCode":403',
    ])
      assert.ok(log.includes(line), `the log has no ${line}`);
    assert.ok(secrets.size >= 25, `only ${secrets.size} secrets collected`);
  });

  it('holds none of the secrets, whole or in part', () => {
    const leaks: string[] = [];
    for (const [secret, { what, random }] of secrets) {
      // Random secrets are also looked for in 16-character pieces: a truncated one leaks too.
      const pieces = random && secret.length > 16 ? windows(secret, 16) : [secret];
      if (pieces.some((piece) => log.includes(piece))) leaks.push(`${what}: ${secret.slice(0, 6)}…`);
    }
    assert.deepEqual(leaks, []);
  });
});

/** Records a secret; a `random` one (not a password, not a structured value) is searched in pieces too. */
type Keep = (what: string, value: string | undefined | null, random?: boolean) => void;

async function playFlow(coffer: CofferProcess, keep: Keep): Promise<void> {
  const api = coffer.client;
  keep('app secret', api.credentials.appSecret);
  const alice = await api.signup('alice@example.com', 'alice: correct horse battery');
  const bob = await api.signup('bob@example.com', 'bob: staple grease cartridge');
  keep('password', alice.password, false);
  keep('password', bob.password, false);
  keepToken(keep, alice.token);
  keepToken(keep, bob.token);

  const login = await api.call('POST', '/api/v1/auth/login', {
    body: { email: alice.email, password: alice.password },
  });
  assert.equal(login.status, 200, login.text);
  keepToken(keep, login.body.token);
  const token = login.body.token as string;
  for (const [email, password] of [
    [alice.email, 'alice: a wrong guess'],
    ['nobody@example.com', 'nobody: any password'],
  ] as const) {
    keep('failed password', password, false);
    const failed = await api.call('POST', '/api/v1/auth/login', { body: { email, password } });
    assert.equal(failed.body.code, 'INVALID_LOGIN');
  }
  await refuseBadTokens(api, token, keep);
  // Secrets where they do not belong: in the query string of a request.
  for (const [name, value] of [
    ['sb-app-secret', api.credentials.appSecret],
    ['access_token', token],
    ['password', alice.password],
  ] as const) {
    const misplaced = await api.call('GET', `/api/v1/user?${name}=${encodeURIComponent(value)}`, { token });
    assert.equal(misplaced.status, 200, misplaced.text);
  }

  const raw = await upload(api, token, 'raw.txt', (url) =>
    fetch(url, { method: 'PUT', body: 'raw bytes', headers: { 'content-type': 'text/plain' } }),
  );
  const form = new FormData();
  form.append('data', new Blob(['multipart bytes'], { type: 'text/plain' }), 'form.txt');
  await upload(api, token, 'form.txt', (url) => fetch(url, { method: 'PUT', body: form }));
  keepLink(keep, raw.putFileUrl);
  for (const path of [`acl/user/${bob.userId}`, 'acl/role/editors']) {
    const shared = await api.call('POST', `/api/v1/file/${raw.fileId}/${path}`, { token });
    assert.equal(shared.status, 200, shared.text);
  }

  for (const reader of [token, bob.token]) {
    const got = await api.call('GET', `/api/v1/file/${raw.fileId}?expiresInSeconds=120`, { token: reader });
    assert.equal(got.status, 200, got.text);
    keepLink(keep, got.body.url);
    assert.equal(await (await fetch(got.body.url)).text(), 'raw bytes');
    assert.equal((await fetch(got.body.url, { headers: { range: 'bytes=0-2' } })).status, 206);
  }
  await refuseBadLinks(api, token, raw, keep);
}

async function upload(
  api: ApiClient,
  token: string,
  filePath: string,
  put: (url: string) => Promise<Response>,
): Promise<{ fileId: string; putFileUrl: string }> {
  const requested = await api.call('POST', '/api/v1/file', { token, body: { filePath } });
  assert.equal(requested.status, 200, requested.text);
  const response = await put(requested.body.putFileUrl);
  assert.equal(response.status, 200);
  const verified = await api.call('POST', `/api/v1/file/${requested.body.fileId}/verify`, {
    token,
    body: { etag: response.headers.get('etag') },
  });
  assert.equal(verified.status, 200, verified.text);
  return requested.body;
}

/** Tokens the server must refuse; each is kept as a secret too: logging them would log real ones. */
async function refuseBadTokens(api: ApiClient, token: string, keep: Keep): Promise<void> {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const bad = [
    `${header}.${payload}.${flipFirst(signature)}`,
    `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
    `${token}x`,
  ];
  for (const badToken of bad) {
    keep('refused token', badToken);
    const refused = await api.call('GET', '/api/v1/user', { token: badToken });
    assert.equal(refused.body.code, 'INVALID_TOKEN');
  }
}

/** Links the data plane must refuse: tampered, moved to the other method, expired. */
async function refuseBadLinks(
  api: ApiClient,
  token: string,
  file: { fileId: string; putFileUrl: string },
  keep: Keep,
): Promise<void> {
  const tampered = file.putFileUrl.replace(/sig=([^&]+)/, (_, sig) => `sig=${flipFirst(sig)}`);
  keepLink(keep, tampered);
  assert.equal((await fetch(tampered, { method: 'PUT', body: 'x' })).status, 403);
  assert.equal((await fetch(file.putFileUrl)).status, 403, 'an upload link does not download');
  assert.equal((await fetch(`${file.putFileUrl}junk`, { method: 'PUT', body: 'x' })).status < 500, true);

  const short = await api.call('GET', `/api/v1/file/${file.fileId}?expiresInSeconds=1`, { token });
  keepLink(keep, short.body.url);
  const isGateway = new URL(short.body.url).pathname.startsWith('/blob/v1/');
  if (!isGateway) return; // S3 judges its own presigned URLs
  // Waits for the condition (the link expiring), not for a fixed time.
  for (const started = Date.now(); ; ) {
    const response = await fetch(short.body.url);
    if (response.status === 403) {
      assert.equal((await response.json()).code, 'LINK_EXPIRED');
      return;
    }
    await response.arrayBuffer();
    assert.ok(Date.now() - started < 30_000, 'the 1 s link never expired');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Keys, hashes and store credentials the server holds: read from its stores while it runs. */
async function keepStoredSecrets(coffer: CofferProcess, keep: Keep): Promise<void> {
  const config = loadConfig({ 'data-dir': coffer.dataDir }, { ...process.env, ...coffer.env });
  const { database, repositories } = await openStores(config);
  try {
    for (const purpose of ['link', 'token'] as const) {
      for (const key of await repositories.signingKeys.list(purpose)) {
        for (const encoding of ['hex', 'base64', 'base64url'] as const)
          keep(`${purpose} signing key (${encoding})`, key.secret.toString(encoding));
      }
    }
    const project = await repositories.projects.findByAppId(coffer.credentials.appId);
    keep(
      'app secret hash',
      (await repositories.appCredentials.findByAppId(coffer.credentials.appId))?.secretHash,
    );
    for (const email of ['alice@example.com', 'bob@example.com']) {
      keep('password hash', (await repositories.users.findByEmail(project!.id, email))?.passwordHash);
    }
  } finally {
    await database.close();
  }
  if (config.storageUrl.startsWith('s3:')) keep('S3 secret access key', process.env.AWS_SECRET_ACCESS_KEY);
}

function keepToken(keep: Keep, token: string): void {
  keep('token', token);
  keep('token signature', token.split('.')[2]);
}

/** A link's signature: Coffer's `sig`, or S3's signature and credential. */
function keepLink(keep: Keep, url: string): void {
  const params = new URL(url).searchParams;
  if (params.has('sig')) {
    keep('link signature', params.get('sig'));
  } else {
    keep('S3 link signature', params.get('X-Amz-Signature'));
    keep('S3 link credential', params.get('X-Amz-Credential'), false);
  }
}

function flipFirst(text: string): string {
  return `${text.startsWith('A') ? 'B' : 'A'}${text.slice(1)}`;
}

function windows(text: string, size: number): string[] {
  return Array.from({ length: text.length - size + 1 }, (_, i) => text.slice(i, i + size));
}
