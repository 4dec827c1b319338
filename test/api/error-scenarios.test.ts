import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ErrorCode, errorCodes } from '../../src/errors/error-codes.ts';
import { type ApiClient, toApiResponse } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/**
 * Every barrier and every error code a request can reach, as one table of scenarios
 * `{name, as, method, url, body, expect}` played against a running server.
 */
type Ctx = {
  server: TestServer;
  api: ApiClient;
  other: ApiClient;
  alice: { token: string; userId: string };
  bob: { token: string; userId: string };
  otherUser: { token: string; userId: string };
  verifiedId: string;
  unverifiedId: string;
  unverifiedPutUrl: string;
  verifiedPutUrl: string;
  downloadUrl: string;
};

type Scenario = {
  name: string;
  as?: 'alice' | 'bob' | 'otherUser' | 'none';
  method: string;
  url: (ctx: Ctx) => string;
  body?: unknown;
  headers?: (ctx: Ctx) => Record<string, string>;
  /** Absolute URL (data plane) instead of an API path, sent without app credentials. */
  raw?: boolean;
  anonymous?: boolean;
  expect: { status: number; code?: ErrorCode };
};

const origin = 'https://app.example.com';

const scenarios: Scenario[] = [
  // Barrier 2: app credentials
  {
    name: 'no app id',
    anonymous: true,
    method: 'GET',
    url: () => '/api/v1/user',
    expect: { status: 401, code: 'APP_CREDENTIALS_REQUIRED' },
  },
  {
    name: 'app id without secret or origin',
    anonymous: true,
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ 'sb-app-id': c.api.credentials.appId }),
    expect: { status: 401, code: 'APP_CREDENTIALS_REQUIRED' },
  },
  {
    name: 'unknown app id',
    anonymous: true,
    method: 'GET',
    url: () => '/api/v1/user',
    headers: () => ({ 'sb-app-id': 'nope', 'sb-app-secret': 'x' }),
    expect: { status: 401, code: 'INVALID_APP_CREDENTIALS' },
  },
  {
    name: 'wrong app secret',
    anonymous: true,
    method: 'POST',
    url: () => '/api/v1/auth/login',
    body: { email: 'a@b.c', password: 'x' },
    headers: (c) => ({
      'sb-app-id': c.api.credentials.appId,
      'sb-app-secret': `${c.api.credentials.appSecret}x`,
    }),
    expect: { status: 401, code: 'INVALID_APP_CREDENTIALS' },
  },
  {
    name: 'origin not allowed',
    anonymous: true,
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ 'sb-app-id': c.other.credentials.appId, origin: 'https://evil.example.com' }),
    expect: { status: 403, code: 'ORIGIN_NOT_ALLOWED' },
  },
  {
    name: 'allowed origin passes barrier 2 (then needs a token)',
    as: 'none',
    anonymous: true,
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ 'sb-app-id': c.other.credentials.appId, origin }),
    expect: { status: 401, code: 'AUTH_REQUIRED' },
  },
  // Barrier 3: token
  {
    name: 'no token',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { nonsense: true },
    expect: { status: 401, code: 'AUTH_REQUIRED' },
  },
  {
    name: 'not a bearer header',
    as: 'none',
    method: 'GET',
    url: () => '/api/v1/user',
    headers: () => ({ authorization: 'Basic abc' }),
    expect: { status: 401, code: 'AUTH_REQUIRED' },
  },
  {
    name: 'garbage token',
    as: 'none',
    method: 'GET',
    url: () => '/api/v1/user',
    headers: () => ({ authorization: 'Bearer abc.def.ghi' }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'alg none token',
    as: 'none',
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ authorization: `Bearer ${toAlgNone(c.alice.token)}` }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'tampered token',
    as: 'none',
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ authorization: `Bearer ${tamper(c.alice.token)}` }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: "another project's token",
    as: 'none',
    method: 'GET',
    url: () => '/api/v1/user',
    headers: (c) => ({ authorization: `Bearer ${c.otherUser.token}` }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  // Login
  {
    name: 'wrong password',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/login',
    body: { email: 'alice@example.com', password: 'wrong password' },
    expect: { status: 401, code: 'INVALID_LOGIN' },
  },
  {
    name: 'unknown email answers the same',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/login',
    body: { email: 'nobody@example.com', password: 'wrong password' },
    expect: { status: 401, code: 'INVALID_LOGIN' },
  },
  {
    name: 'refresh with a token Coffer never issued',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/refresh',
    body: { refreshToken: 'A'.repeat(43) },
    expect: { status: 401, code: 'INVALID_REFRESH_TOKEN' },
  },
  {
    name: 'wrong old password on a password change',
    method: 'POST',
    url: () => '/api/v1/auth/password',
    body: { oldPassword: 'wrong password', newPassword: 'a new long password' },
    expect: { status: 401, code: 'INVALID_LOGIN' },
  },
  {
    name: 'login without body',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/login',
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'signup with a taken email',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/signup',
    body: { email: 'ALICE@example.com', password: 'another password' },
    expect: { status: 409, code: 'EMAIL_TAKEN' },
  },
  {
    name: 'signup with a short password',
    as: 'none',
    method: 'POST',
    url: () => '/api/v1/auth/signup',
    body: { email: 'short@example.com', password: 'short' },
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  // Input rules
  {
    name: 'invalid JSON',
    method: 'POST',
    url: () => '/api/v1/file',
    body: '{"filePath":',
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'filePath not a string',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 42 },
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'unknown permissionScope',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 'x.txt', permissionScope: 'world' },
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'dot-dot filePath',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 'a/../b.txt' },
    expect: { status: 400, code: 'INVALID_FILE_PATH' },
  },
  {
    name: 'absolute filePath',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: '/etc/passwd' },
    expect: { status: 400, code: 'INVALID_FILE_PATH' },
  },
  {
    name: 'bidi override in filePath',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 'evil\u202egpj.exe' },
    expect: { status: 400, code: 'INVALID_FILE_PATH' },
  },
  {
    name: 'second request for a held path',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 'docs/verified.txt' },
    expect: { status: 409, code: 'FILE_EXISTS' },
  },
  {
    name: 'JSON body over the limit',
    method: 'POST',
    url: () => '/api/v1/file',
    body: { filePath: 'x'.repeat(5000) },
    expect: { status: 413, code: 'BODY_TOO_LARGE' },
  },
  {
    name: 'a body that is not JSON',
    method: 'POST',
    url: () => '/api/v1/file',
    headers: () => ({ 'content-type': 'text/plain' }),
    body: 'filePath=x.txt',
    expect: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  },
  {
    name: 'expiresInSeconds 1e3',
    method: 'GET',
    url: (c) => `/api/v1/file/${c.verifiedId}?expiresInSeconds=1e3`,
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'expiresInSeconds +60',
    method: 'GET',
    url: (c) => `/api/v1/file/${c.verifiedId}?expiresInSeconds=%2B60`,
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'expiresInSeconds over 7 days',
    method: 'GET',
    url: (c) => `/api/v1/file/${c.verifiedId}?expiresInSeconds=604801`,
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  // Files
  {
    name: 'unknown file id',
    method: 'GET',
    url: () => '/api/v1/file/AAAAAAAAAAAAAAAAAAAAAA',
    expect: { status: 404, code: 'FILE_NOT_FOUND' },
  },
  {
    name: 'file id of a strange form',
    method: 'GET',
    url: () => '/api/v1/file/..%2F..%2Fetc',
    expect: { status: 404, code: 'FILE_NOT_FOUND' },
  },
  {
    name: 'stranger reads',
    as: 'bob',
    method: 'GET',
    url: (c) => `/api/v1/file/${c.verifiedId}`,
    expect: { status: 403, code: 'ACCESS_DENIED' },
  },
  {
    name: 'stranger shares',
    as: 'bob',
    method: 'POST',
    url: (c) => `/api/v1/file/${c.verifiedId}/acl/user/${c.bob.userId}`,
    expect: { status: 403, code: 'ACCESS_DENIED' },
  },
  {
    name: 'download link of an unverified file',
    method: 'GET',
    url: (c) => `/api/v1/file/${c.unverifiedId}`,
    expect: { status: 409, code: 'FILE_NOT_VERIFIED' },
  },
  {
    name: 'verify before any upload',
    method: 'POST',
    url: (c) => `/api/v1/file/${c.unverifiedId}/verify`,
    body: { etag: '"d41d8cd98f00b204e9800998ecf8427e"' },
    expect: { status: 409, code: 'UPLOAD_MISSING' },
  },
  {
    name: 'verify with a wrong etag',
    method: 'POST',
    url: (c) => `/api/v1/file/${c.verifiedId}/verify`,
    body: { etag: '"00000000000000000000000000000000"' },
    expect: { status: 409, code: 'ETAG_MISMATCH' },
  },
  {
    name: 'verify without an etag',
    method: 'POST',
    url: (c) => `/api/v1/file/${c.verifiedId}/verify`,
    body: {},
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'share with a malformed role',
    method: 'POST',
    url: (c) => `/api/v1/file/${c.verifiedId}/acl/role/Not%20A%20Role`,
    expect: { status: 400, code: 'VALIDATION_FAILED' },
  },
  {
    name: 'unknown route',
    method: 'GET',
    url: () => '/api/v1/nothing-here',
    expect: { status: 404, code: 'NOT_FOUND' },
  },
  // Data plane
  {
    name: 'PUT to a verified upload link',
    raw: true,
    method: 'PUT',
    url: (c) => c.verifiedPutUrl,
    body: 'new content',
    expect: { status: 409, code: 'ALREADY_VERIFIED' },
  },
  {
    name: 'PUT over the size limit',
    raw: true,
    method: 'PUT',
    url: (c) => c.unverifiedPutUrl,
    body: 'x'.repeat(2048),
    expect: { status: 413, code: 'FILE_TOO_LARGE' },
  },
  {
    name: 'tampered download link',
    raw: true,
    method: 'GET',
    url: (c) => c.downloadUrl.replace(/sig=(.)/, (_, first) => `sig=${first === 'A' ? 'B' : 'A'}`),
    expect: { status: 403, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'download link used for PUT',
    raw: true,
    method: 'PUT',
    url: (c) => c.downloadUrl,
    body: 'x',
    expect: { status: 403, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'link without a signature',
    raw: true,
    method: 'GET',
    url: (c) => c.downloadUrl.split('?')[0]!,
    expect: { status: 403, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'link with a later expiry',
    raw: true,
    method: 'GET',
    url: (c) => c.downloadUrl.replace(/exp=(\d+)/, (_, exp) => `exp=${Number(exp) + 60}`),
    expect: { status: 403, code: 'INVALID_SIGNATURE' },
  },
];

/** Codes no single request reaches here, and where each is tested instead. */
const testedElsewhere: Partial<Record<ErrorCode, string>> = {
  TOKEN_EXPIRED: 'test/api/tokens-and-accounts.test.ts',
  QUERY_TOO_BROAD: 'test/search/search-budget.test.ts (too many folder shares; a sort no index serves)',
  ACCOUNT_DISABLED: 'test/api/tokens-and-accounts.test.ts',
  REAUTHENTICATION_REQUIRED: 'test/account-controls/self-deletion.test.ts',
  PASSKEY_LIMIT_REACHED: 'test/account-controls/passkeys.test.ts',
  MFA_REQUIRED: 'test/account-controls/mfa-totp.test.ts',
  MFA_ENROLMENT_REQUIRED: 'test/account-controls/mfa-enrolment.test.ts',
  EMAIL_NOT_VERIFIED: 'test/accounts/account-mail-flows.test.ts',
  RATE_LIMITED: 'test/api/tokens-and-accounts.test.ts',
  LINK_EXPIRED: 'test/api/data-plane.test.ts',
  LINK_REVOKED: 'test/api/link-revocation.test.ts',
  HTTPS_REQUIRED: 'test/api/https-barrier.test.ts',
  USER_NOT_FOUND: 'test/cli/cli.test.ts',
  UNAVAILABLE: 'test/api/concurrency.test.ts',
  METHOD_NOT_ALLOWED: 'test/api/http-conformance.test.ts (405 with Allow on both planes)',
  INTERNAL: 'only a bug reaches it; no request can',
  REQUEST_TIMEOUT: 'test/api/raw-http.test.ts and test/api/body-timeout.test.ts',
  HEADERS_TOO_LARGE: 'test/api/raw-http.test.ts',
  RANGE_NOT_SATISFIABLE: 'test/api/data-plane.test.ts',
  STORAGE_FULL: 'test/stacks/disk-full.test.ts',
  CONTENT_MISMATCH: 'test/api/upload-contracts.test.ts',
  QUOTA_EXCEEDED: 'test/api/quotas.test.ts',
  CONTENT_TYPE_NOT_ALLOWED: 'test/api/quotas.test.ts',
  UPLOAD_NOT_FOUND: 'test/resumable/upload-rules.test.ts',
  UPLOAD_OFFSET_CONFLICT: 'test/resumable/upload-rules.test.ts',
  UPLOAD_FINISHED: 'test/resumable/upload-rules.test.ts',
  UPLOAD_LOCKED: 'test/resumable/upload-rules.test.ts',
  UPLOAD_REPLACED: 'test/resumable/upload-rules.test.ts',
  TUS_VERSION_UNSUPPORTED: 'test/resumable/upload-rules.test.ts',
  CHECKSUM_MISMATCH: 'test/resumable/upload-rules.test.ts',
  UNSUPPORTED_MEDIA: 'test/renditions/renditions-api.test.ts',
  IMAGE_TOO_LARGE: 'test/renditions/renditions-api.test.ts',
  IMAGE_UNREADABLE: 'src/images/sharp-image-renderer.test.ts',
  MEDIA_UNREADABLE: 'test/media/media-renditions.test.ts',
  RENDITIONS_DISABLED: 'test/renditions/renditions-api.test.ts',
  RENDER_BUSY: 'test/renditions/renditions-api.test.ts',
  FOLDER_NOT_FOUND: 'test/folders/browse-folders.test.ts and test/folders/folder-changes.test.ts',
  FOLDER_CONFLICT: 'test/folders/folder-changes.test.ts',
  FOLDER_TOO_LARGE: 'test/folders/folder-changes.test.ts',
  OAUTH_PROVIDER_NOT_FOUND: 'test/sign-in/oauth-sign-in.test.ts',
  OAUTH_STATE_NOT_FOUND: 'test/sign-in/oauth-sign-in.test.ts',
  OAUTH_FAILED: 'test/sign-in/oauth-sign-in.test.ts',
  OAUTH_PROVIDER_UNAVAILABLE: 'test/sign-in/oauth-sign-in.test.ts',
  IDENTITY_IN_USE: 'test/sign-in/oauth-sign-in.test.ts',
  ACCOUNT_EXISTS: 'test/sign-in/oauth-sign-in.test.ts',
  LAST_SIGN_IN_METHOD: 'test/sign-in/oauth-sign-in.test.ts',
  FILE_ON_HOLD: 'test/trash/holds.test.ts',
  VERSION_NOT_FOUND: 'test/versions/file-versions.test.ts',
  SESSION_NOT_FOUND: 'test/account-controls/sessions.test.ts',
  ARCHIVE_STALE: 'test/archives/archive-refusals.test.ts',
  ARCHIVE_TOO_LARGE: 'test/archives/archive-refusals.test.ts',
  FILE_QUARANTINED: 'test/admission/quarantine.test.ts',
  FILE_INFECTED: 'test/admission/scan-uploads.test.ts (needs a clamd)',
  SCANNER_UNAVAILABLE: 'test/admission/scan-uploads.test.ts (a stopped clamd)',
  FILE_REJECTED: 'test/admission/admission-hooks.test.ts (a hook that refuses)',
  ADMISSION_UNAVAILABLE: 'test/admission/admission-hooks.test.ts (a hook that does not answer)',
};

describe('error scenarios', () => {
  const ctx = {} as Ctx;
  before(async () => {
    ctx.server = await startTestServer(
      {},
      { COFFER_MAX_FILE_SIZE_BYTES: '1024', COFFER_JSON_BODY_LIMIT_BYTES: '1024' },
    );
    ctx.api = ctx.server.client;
    ctx.other = await ctx.server.createProject('other', [origin]);
    ctx.alice = await ctx.api.signup('alice@example.com');
    ctx.bob = await ctx.api.signup('bob@example.com');
    ctx.otherUser = await ctx.other.signup('other@example.com');
    const requested = await ctx.api.call('POST', '/api/v1/file', {
      token: ctx.alice.token,
      body: { filePath: 'docs/verified.txt' },
    });
    ctx.verifiedId = requested.body.fileId;
    ctx.verifiedPutUrl = requested.body.putFileUrl;
    const put = await fetch(ctx.verifiedPutUrl, { method: 'PUT', body: 'hello' });
    await ctx.api.call('POST', `/api/v1/file/${ctx.verifiedId}/verify`, {
      token: ctx.alice.token,
      body: { etag: put.headers.get('etag') },
    });
    const unverified = await ctx.api.call('POST', '/api/v1/file', {
      token: ctx.alice.token,
      body: { filePath: 'docs/unverified.txt' },
    });
    ctx.unverifiedId = unverified.body.fileId;
    ctx.unverifiedPutUrl = unverified.body.putFileUrl;
    ctx.downloadUrl = (
      await ctx.api.call('GET', `/api/v1/file/${ctx.verifiedId}`, { token: ctx.alice.token })
    ).body.url;
  });
  after(() => ctx.server.stop());

  for (const scenario of scenarios) {
    it(`${scenario.name} → ${scenario.expect.status} ${scenario.expect.code ?? ''}`, async () => {
      const response = scenario.raw ? await callRaw(ctx, scenario) : await callApi(ctx, scenario);
      assert.equal(response.status, scenario.expect.status, response.text);
      if (scenario.expect.code) {
        assert.deepEqual(Object.keys(response.body).sort(), ['code', 'error', 'message', 'statusCode']);
        assert.equal(response.body.code, scenario.expect.code);
        assert.equal(response.body.statusCode, scenario.expect.status);
      }
    });
  }

  it('reaches every error code, here or in the suite named for it', () => {
    const reached = new Set(scenarios.map((s) => s.expect.code).filter(Boolean));
    for (const code of Object.keys(errorCodes) as ErrorCode[]) {
      assert.ok(reached.has(code) || testedElsewhere[code], `no scenario reaches ${code}`);
    }
  });
});

async function callApi(ctx: Ctx, scenario: Scenario) {
  const token = scenario.as === 'none' ? undefined : ctx[scenario.as ?? 'alice'].token;
  const client = scenario.as === 'otherUser' ? ctx.other : ctx.api;
  return client.call(scenario.method, scenario.url(ctx), {
    token,
    body: scenario.body,
    anonymous: scenario.anonymous,
    headers: scenario.headers?.(ctx),
  });
}

function callRaw(ctx: Ctx, scenario: Scenario) {
  return fetch(scenario.url(ctx), {
    method: scenario.method,
    body: scenario.body as string | undefined,
  }).then(toApiResponse);
}

function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  claims.sub = 'someone-else';
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

function toAlgNone(token: string): string {
  const [, payload] = token.split('.');
  return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
}
