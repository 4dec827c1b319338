import assert from 'node:assert/strict';
import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { assertAnswer, assertEveryCase, type Expected } from './expected-answer.ts';
import { signatureVariants } from './signature-variants.ts';

type Claims = Record<string, unknown>;
/** What the cases build tokens from: a genuine token of user A in project 1, and the keys. */
type Context = {
  token: string;
  header: Claims;
  payload: Claims;
  tokenKey: Buffer;
  linkKey: Buffer;
  otherProjectId: string;
  otherProjectUserId: string;
  otherProjectToken: string;
  otherUserToken: string;
  userBId: string;
};
/** A case sends `Authorization: <authorization(context)>` (no header when it is empty). */
type Case = { name: string; authorization: (context: Context) => string; expect?: Expected };

const invalid: Expected = { status: 401, code: 'INVALID_TOKEN' };
const missing: Expected = { status: 401, code: 'AUTH_REQUIRED' };
const accepted: Expected = { status: 200 };

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const segments = (token: string) => token.split('.') as [string, string, string];
/** A token over these parts, signed with HMAC-`hash` by `key` (whatever `alg` the header claims). */
const signed = (header: unknown, payload: unknown, key: Buffer | string, hash = 'sha256') => {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${createHmac(hash, key).update(input).digest('base64url')}`;
};
const bearer = (token: string) => `Bearer ${token}`;

type Build = (context: Context) => string;
type Changes = (context: Context) => Claims;
// The builders below take changes to the genuine parts; a change to `undefined` drops the field
// (JSON.stringify leaves it out).

/** The genuine header with changes, signed by the token key (or `key`) with HMAC-`hash`. */
const header =
  (changes: Changes, key?: (c: Context) => Buffer | string, hash?: string): Build =>
  (c) =>
    bearer(signed({ ...c.header, ...changes(c) }, c.payload, key?.(c) ?? c.tokenKey, hash));
/** The genuine claims with changes, re-signed by the token key: the claim checks must hold alone. */
const claims =
  (changes: Changes): Build =>
  (c) =>
    bearer(signed(c.header, { ...c.payload, ...changes(c) }, c.tokenKey));
/** Changed header or claims behind the genuine signature (what anyone without the key can do). */
const unsigned =
  (part: 'header' | 'payload', changes: Changes): Build =>
  (c) => {
    const parts = { header: c.header, payload: c.payload, [part]: { ...c[part], ...changes(c) } };
    return bearer(`${encode(parts.header)}.${encode(parts.payload)}.${segments(c.token)[2]}`);
  };
/** The genuine header, payload and signature segments, rearranged. */
const raw =
  (build: (header: string, payload: string, signature: string, c: Context) => string): Build =>
  (c) =>
    bearer(build(...segments(c.token), c));
/** No signature at all. */
const unsignedNone = (alg: string): Build => raw((_h, p, _s, c) => `${encode({ ...c.header, alg })}.${p}.`);

const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaSigned: Build = (c) => {
  const input = `${encode({ ...c.header, alg: 'RS256' })}.${encode(c.payload)}`;
  return bearer(
    `${input}.${createSign('RSA-SHA256').update(input).sign(attacker.privateKey).toString('base64url')}`,
  );
};

/** Changes to the header; re-signed with the real key unless the name says otherwise. */
const headerCases: Case[] = [
  { name: 'alg none, no signature', authorization: unsignedNone('none') },
  { name: 'alg None, no signature', authorization: unsignedNone('None') },
  { name: 'alg NONE, no signature', authorization: unsignedNone('NONE') },
  { name: 'alg none, genuine signature kept', authorization: unsigned('header', () => ({ alg: 'none' })) },
  {
    name: 'alg HS512, signed HS512 with the real key',
    authorization: header(() => ({ alg: 'HS512' }), undefined, 'sha512'),
  },
  {
    name: 'alg HS384, signed HS384 with the real key',
    authorization: header(() => ({ alg: 'HS384' }), undefined, 'sha384'),
  },
  { name: 'alg hs256 in lower case', authorization: header(() => ({ alg: 'hs256' })) },
  {
    name: 'alg RS256 over an HMAC with the real key (key confusion)',
    authorization: header(() => ({ alg: 'RS256' })),
  },
  { name: "alg RS256 signed with an attacker's RSA key", authorization: rsaSigned },
  {
    name: 'alg ES256 with the genuine signature',
    authorization: unsigned('header', () => ({ alg: 'ES256' })),
  },
  {
    name: 'alg PS256 with the genuine signature',
    authorization: unsigned('header', () => ({ alg: 'PS256' })),
  },
  { name: 'alg missing', authorization: header(() => ({ alg: undefined })) },
  { name: 'alg as an array', authorization: header(() => ({ alg: ['HS256'] })) },
  { name: 'kid unknown', authorization: header(() => ({ kid: 'token2' })) },
  { name: 'kid missing', authorization: header(() => ({ kid: undefined })) },
  { name: 'kid empty', authorization: header(() => ({ kid: '' })) },
  { name: 'kid in capitals', authorization: header((c) => ({ kid: String(c.header.kid).toUpperCase() })) },
  { name: 'kid as a number', authorization: header(() => ({ kid: 1 })) },
  { name: 'kid as a path', authorization: header((c) => ({ kid: `../${c.header.kid}` })) },
  {
    name: 'kid of the link key, signed with the link key',
    authorization: header(
      () => ({ kid: 'link1' }),
      (c) => c.linkKey,
    ),
  },
  { name: 'kid of the link key, signed with the token key', authorization: header(() => ({ kid: 'link1' })) },
  {
    name: 'the genuine kid, signed with the link key',
    authorization: header(
      () => ({}),
      (c) => c.linkKey,
    ),
  },
  {
    name: "an embedded jwk with the attacker's key",
    authorization: header(
      () => ({ jwk: { kty: 'oct', k: encode('attacker') } }),
      () => 'attacker',
    ),
  },
  {
    name: "a jku to the attacker's keys",
    authorization: header(
      () => ({ jku: 'https://attacker.example/keys' }),
      () => 'attacker',
    ),
  },
  {
    name: 'a critical extension nobody understands',
    authorization: header(() => ({ crit: ['x-coffer'], 'x-coffer': 1 })),
  },
  { name: 'header changed, not re-signed', authorization: unsigned('header', () => ({ typ: 'at+jwt' })) },
  {
    name: 'header that is not JSON',
    authorization: raw((_h, p, s) => `${Buffer.from('not json').toString('base64url')}.${p}.${s}`),
  },
  { name: 'header a JSON array', authorization: raw((_h, p, s, c) => `${encode([c.header])}.${p}.${s}`) },
  { name: 'header that is empty', authorization: raw((_h, p, s) => `.${p}.${s}`) },
  { name: 'header padded with =', authorization: raw((h, p, s) => `${h}=.${p}.${s}`) },
];

/** Changes to the claims: re-signed with the real key (the claim checks must hold on their own) or not. */
const payloadCases: Case[] = [
  { name: 'iss another issuer', authorization: claims(() => ({ iss: 'other' })) },
  { name: 'iss in capitals', authorization: claims(() => ({ iss: 'Coffer' })) },
  { name: 'iss missing', authorization: claims(() => ({ iss: undefined })) },
  { name: 'iss as an array', authorization: claims((c) => ({ iss: [c.payload.iss] })) },
  { name: 'aud (project) of another project', authorization: claims((c) => ({ aud: c.otherProjectId })) },
  { name: 'aud missing', authorization: claims(() => ({ aud: undefined })) },
  { name: 'aud empty', authorization: claims(() => ({ aud: '' })) },
  { name: 'aud as an array', authorization: claims((c) => ({ aud: [c.payload.aud] })) },
  {
    name: 'a project claim beside another aud',
    authorization: claims((c) => ({ aud: c.otherProjectId, project: c.payload.aud })),
  },
  { name: 'sub unknown', authorization: claims(() => ({ sub: 'AAAAAAAAAAAAAAAAAAAAAA' })) },
  { name: "sub of another project's user", authorization: claims((c) => ({ sub: c.otherProjectUserId })) },
  { name: 'sub missing', authorization: claims(() => ({ sub: undefined })) },
  { name: 'sub as a number', authorization: claims(() => ({ sub: 1 })) },
  { name: 'sub as an array', authorization: claims((c) => ({ sub: [c.payload.sub] })) },
  { name: 'exp missing', authorization: claims(() => ({ exp: undefined })) },
  { name: 'exp as a string', authorization: claims((c) => ({ exp: String(c.payload.exp) })) },
  { name: 'exp with a fraction', authorization: claims((c) => ({ exp: Number(c.payload.exp) + 0.5 })) },
  { name: 'exp null', authorization: claims(() => ({ exp: null })) },
  {
    name: 'exp in the past',
    authorization: claims((c) => ({ exp: Number(c.payload.iat) - 1 })),
    expect: { status: 401, code: 'TOKEN_EXPIRED' },
  },
  { name: 'iat missing', authorization: claims(() => ({ iat: undefined })) },
  { name: 'iat as a string', authorization: claims((c) => ({ iat: String(c.payload.iat) })) },
  {
    name: 'payload that is not JSON',
    authorization: raw((h, _p, s) => `${h}.${Buffer.from('{"sub":').toString('base64url')}.${s}`),
  },
  { name: 'payload a JSON array', authorization: (c) => bearer(signed(c.header, [c.payload], c.tokenKey)) },
  { name: 'payload padded with =', authorization: raw((h, p, s) => `${h}.${p}=.${s}`) },
  {
    name: 'sub of another user, not re-signed',
    authorization: unsigned('payload', (c) => ({ sub: c.userBId })),
  },
  {
    name: 'aud of another project, not re-signed',
    authorization: unsigned('payload', (c) => ({ aud: c.otherProjectId })),
  },
  {
    name: 'exp a year later, not re-signed',
    authorization: unsigned('payload', (c) => ({ exp: Number(c.payload.exp) + 31_536_000 })),
  },
  { name: 'iss changed, not re-signed', authorization: unsigned('payload', () => ({ iss: 'other' })) },
  {
    name: 'an admin claim added, not re-signed',
    authorization: unsigned('payload', () => ({ role: 'admin' })),
  },
];

/** The token as a whole and the Authorization header around it. */
const shapeCases: Case[] = [
  { name: 'two segments', authorization: raw((h, p) => `${h}.${p}`) },
  { name: 'four segments', authorization: raw((h, p, s) => `${h}.${p}.${s}.x`) },
  { name: 'a trailing dot', authorization: raw((h, p, s) => `${h}.${p}.${s}.`) },
  { name: 'a leading dot', authorization: raw((h, p, s) => `.${h}.${p}.${s}`) },
  { name: 'only dots', authorization: () => bearer('..') },
  { name: 'not a JWT', authorization: () => bearer('not-a-token') },
  {
    name: 'the signature of another genuine token',
    authorization: raw((h, p, _s, c) => `${h}.${p}.${segments(c.otherUserToken)[2]}`),
  },
  { name: "another project's genuine token", authorization: (c) => bearer(c.otherProjectToken) },
  { name: 'the token percent-encoded', authorization: raw((h, p, s) => [h, p, s].join('%2E')) },
  { name: 'no scheme', authorization: (c) => c.token, expect: missing },
  { name: 'Basic scheme', authorization: (c) => `Basic ${c.token}`, expect: missing },
  { name: 'Bearer twice', authorization: (c) => `Bearer Bearer ${c.token}`, expect: missing },
  {
    name: 'a space inside the token',
    authorization: (c) => `Bearer ${c.token.slice(0, 10)} ${c.token.slice(10)}`,
    expect: missing,
  },
  { name: 'an empty token', authorization: () => 'Bearer ', expect: missing },
  { name: 'no Authorization header', authorization: () => '', expect: missing },
];

const signatureCases: Case[] = signatureVariants.map((variant) => ({
  name: `signature: ${variant.name}`,
  authorization: raw((h, p, s) => `${h}.${p}.${variant.apply(s)}`),
}));

describe('tampering with access tokens', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let context: Context;
  let otherProject: ApiClient;

  const profile = (authorization: string, client?: ApiClient) =>
    (client ?? server.client).call('GET', '/api/v1/user', {
      headers: authorization ? { authorization } : {},
    });

  /** A genuine token whose signature holds `-` or `_`, so that the standard-alphabet variant differs. */
  const tokenOf = async (email: string, password: string) => {
    for (;;) {
      const login = await server.client.call('POST', '/api/v1/auth/login', { body: { email, password } });
      assert.equal(login.status, 200, login.text);
      if (/[-_]/.test(segments(login.body.token)[2])) return login.body.token as string;
      clock.advance(1); // another second, another iat, another signature
    }
  };

  before(async () => {
    server = await startTestServer({}, {}, { clock });
    otherProject = await server.createProject('other');
    const userA = await server.client.signup();
    const userB = await server.client.signup();
    const userC = await otherProject.signup();
    const token = await tokenOf(userA.email, userA.password);
    const keyOf = async (purpose: 'token' | 'link') =>
      (await server.services.repositories.signingKeys.list(purpose))[0]?.secret as Buffer;
    const [header, payload] = segments(token)
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Claims) as [
      Claims,
      Claims,
    ];
    context = {
      token,
      header,
      payload,
      tokenKey: await keyOf('token'),
      linkKey: await keyOf('link'),
      otherProjectId: otherProject.credentials.projectId,
      otherProjectUserId: userC.userId,
      otherProjectToken: userC.token,
      otherUserToken: userB.token,
      userBId: userB.userId,
    };
  });
  after(() => server.stop());

  it('the genuine token works, and so does the same token built by this test', async () => {
    assertAnswer(await profile(bearer(context.token)), accepted, 'genuine');
    assertAnswer(
      await profile(bearer(signed(context.header, context.payload, context.tokenKey))),
      accepted,
      're-built',
    );
    assertAnswer(await profile(`bearer ${context.token}`), accepted, 'scheme in lower case');
    assertAnswer(
      await profile(bearer(context.otherProjectToken), otherProject),
      accepted,
      'other project, own credentials',
    );
  });

  const cases = [...headerCases, ...payloadCases, ...shapeCases, ...signatureCases];
  it(`${cases.length} tampered tokens are refused`, async () => {
    await assertEveryCase(cases, async ({ name, authorization, expect = invalid }) => {
      const header = authorization(context);
      assert.notEqual(header, bearer(context.token), `${name} must change the token`);
      return { answer: await profile(header), expected: expect };
    });
  });

  it('expiry with an injected clock: accepted at exp − 1 s and at exp, TOKEN_EXPIRED at exp + 1 s', async () => {
    const start = clock.seconds;
    const exp = Number(context.payload.exp);
    try {
      clock.set(exp - 1);
      assertAnswer(await profile(bearer(context.token)), accepted, 'exp − 1 s');
      clock.set(exp);
      assertAnswer(await profile(bearer(context.token)), accepted, 'exp');
      clock.set(exp + 1);
      assertAnswer(await profile(bearer(context.token)), { status: 401, code: 'TOKEN_EXPIRED' }, 'exp + 1 s');
      const extended = unsigned('payload', () => ({ exp: exp + 3600 }))(context);
      assertAnswer(await profile(extended), invalid, 'a later exp, not re-signed, after expiry');
    } finally {
      clock.set(start);
    }
  });
});
