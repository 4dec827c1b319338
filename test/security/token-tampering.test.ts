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
/** A case sends `Authorization: <authorization>` (or builds the header itself when it returns one). */
type Case = { name: string; authorization: (context: Context) => string; expect?: Expected };

const invalid: Expected = { status: 401, code: 'INVALID_TOKEN' };
const missing: Expected = { status: 401, code: 'AUTH_REQUIRED' };
const accepted: Expected = { status: 200 };

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const segments = (token: string) => token.split('.') as [string, string, string];
const hmac = (hash: string, key: Buffer | string, input: string) =>
  createHmac(hash, key).update(input).digest('base64url');
/** A token over these parts, signed with HMAC-`hash` by `key` (whatever `alg` the header claims). */
const signed = (header: Claims, payload: Claims, key: Buffer | string, hash = 'sha256') => {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${hmac(hash, key, input)}`;
};
/** New header or payload parts, keeping the genuine signature (no key needed). */
const unsigned = (header: Claims, payload: Claims, token: string) =>
  `${encode(header)}.${encode(payload)}.${segments(token)[2]}`;
const without = (claims: Claims, name: string) =>
  Object.fromEntries(Object.entries(claims).filter(([k]) => k !== name));
const bearer = (token: string) => `Bearer ${token}`;

const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsaSigned = (header: Claims, payload: Claims) => {
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(attacker.privateKey).toString('base64url')}`;
};

/** Changes to the header; re-signed with the real key unless the name says otherwise. */
const headerCases: Case[] = [
  {
    name: 'alg none, no signature',
    authorization: (c) => bearer(`${encode({ ...c.header, alg: 'none' })}.${encode(c.payload)}.`),
  },
  {
    name: 'alg none, genuine signature kept',
    authorization: (c) => bearer(unsigned({ ...c.header, alg: 'none' }, c.payload, c.token)),
  },
  {
    name: 'alg None, no signature',
    authorization: (c) => bearer(`${encode({ ...c.header, alg: 'None' })}.${encode(c.payload)}.`),
  },
  {
    name: 'alg NONE, no signature',
    authorization: (c) => bearer(`${encode({ ...c.header, alg: 'NONE' })}.${encode(c.payload)}.`),
  },
  {
    name: 'alg HS512, signed HS512 with the real key',
    authorization: (c) => bearer(signed({ ...c.header, alg: 'HS512' }, c.payload, c.tokenKey, 'sha512')),
  },
  {
    name: 'alg HS384, signed HS384 with the real key',
    authorization: (c) => bearer(signed({ ...c.header, alg: 'HS384' }, c.payload, c.tokenKey, 'sha384')),
  },
  {
    name: 'alg hs256 in lower case',
    authorization: (c) => bearer(signed({ ...c.header, alg: 'hs256' }, c.payload, c.tokenKey)),
  },
  {
    name: 'alg RS256 over an HMAC with the real key (key confusion)',
    authorization: (c) => bearer(signed({ ...c.header, alg: 'RS256' }, c.payload, c.tokenKey)),
  },
  {
    name: "alg RS256 signed with an attacker's RSA key",
    authorization: (c) => bearer(rsaSigned({ ...c.header, alg: 'RS256' }, c.payload)),
  },
  {
    name: 'alg ES256 with the genuine signature',
    authorization: (c) => bearer(unsigned({ ...c.header, alg: 'ES256' }, c.payload, c.token)),
  },
  {
    name: 'alg PS256 with the genuine signature',
    authorization: (c) => bearer(unsigned({ ...c.header, alg: 'PS256' }, c.payload, c.token)),
  },
  {
    name: 'alg missing',
    authorization: (c) => bearer(signed(without(c.header, 'alg'), c.payload, c.tokenKey)),
  },
  {
    name: 'alg as an array',
    authorization: (c) => bearer(signed({ ...c.header, alg: ['HS256'] }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid unknown',
    authorization: (c) => bearer(signed({ ...c.header, kid: 'token2' }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid missing',
    authorization: (c) => bearer(signed(without(c.header, 'kid'), c.payload, c.tokenKey)),
  },
  {
    name: 'kid empty',
    authorization: (c) => bearer(signed({ ...c.header, kid: '' }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid in capitals',
    authorization: (c) =>
      bearer(signed({ ...c.header, kid: String(c.header.kid).toUpperCase() }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid as a number',
    authorization: (c) => bearer(signed({ ...c.header, kid: 1 }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid as a path',
    authorization: (c) => bearer(signed({ ...c.header, kid: `../${c.header.kid}` }, c.payload, c.tokenKey)),
  },
  {
    name: 'kid of the link key, signed with the link key',
    authorization: (c) => bearer(signed({ ...c.header, kid: 'link1' }, c.payload, c.linkKey)),
  },
  {
    name: 'kid of the link key, signed with the token key',
    authorization: (c) => bearer(signed({ ...c.header, kid: 'link1' }, c.payload, c.tokenKey)),
  },
  {
    name: 'the genuine kid, signed with the link key',
    authorization: (c) => bearer(signed(c.header, c.payload, c.linkKey)),
  },
  {
    name: "an embedded jwk with the attacker's key",
    authorization: (c) =>
      bearer(signed({ ...c.header, jwk: { kty: 'oct', k: encode('attacker') } }, c.payload, 'attacker')),
  },
  {
    name: "a jku to the attacker's keys",
    authorization: (c) =>
      bearer(signed({ ...c.header, jku: 'https://attacker.example/keys' }, c.payload, 'attacker')),
  },
  {
    name: 'a critical extension nobody understands',
    authorization: (c) =>
      bearer(signed({ ...c.header, crit: ['x-coffer'], 'x-coffer': 1 }, c.payload, c.tokenKey)),
  },
  {
    name: 'header that is not JSON',
    authorization: (c) =>
      bearer(
        `${Buffer.from('not json').toString('base64url')}.${segments(c.token)[1]}.${segments(c.token)[2]}`,
      ),
  },
  {
    name: 'header that is empty',
    authorization: (c) => bearer(`.${segments(c.token)[1]}.${segments(c.token)[2]}`),
  },
  {
    name: 'header padded with =',
    authorization: (c) => bearer(`${segments(c.token)[0]}=.${segments(c.token)[1]}.${segments(c.token)[2]}`),
  },
  {
    name: 'header changed, not re-signed',
    authorization: (c) => bearer(unsigned({ ...c.header, typ: 'at+jwt' }, c.payload, c.token)),
  },
  {
    name: 'header a JSON array',
    authorization: (c) => bearer(`${encode([c.header])}.${segments(c.token)[1]}.${segments(c.token)[2]}`),
  },
];

/** Changes to the claims: re-signed with the real key (the claim checks must hold on their own) or not. */
const payloadCases: Case[] = [
  {
    name: 'iss another issuer',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, iss: 'other' }, c.tokenKey)),
  },
  {
    name: 'iss in capitals',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, iss: 'Coffer' }, c.tokenKey)),
  },
  {
    name: 'iss missing',
    authorization: (c) => bearer(signed(c.header, without(c.payload, 'iss'), c.tokenKey)),
  },
  {
    name: 'iss as an array',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, iss: [c.payload.iss] }, c.tokenKey)),
  },
  {
    name: 'aud (project) of another project',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, aud: c.otherProjectId }, c.tokenKey)),
  },
  {
    name: 'aud missing',
    authorization: (c) => bearer(signed(c.header, without(c.payload, 'aud'), c.tokenKey)),
  },
  {
    name: 'aud empty',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, aud: '' }, c.tokenKey)),
  },
  {
    name: 'aud as an array',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, aud: [c.payload.aud] }, c.tokenKey)),
  },
  {
    name: 'project claim added for another project',
    authorization: (c) =>
      bearer(signed(c.header, { ...c.payload, aud: c.otherProjectId, project: c.payload.aud }, c.tokenKey)),
  },
  {
    name: 'sub unknown',
    authorization: (c) =>
      bearer(signed(c.header, { ...c.payload, sub: 'AAAAAAAAAAAAAAAAAAAAAA' }, c.tokenKey)),
  },
  {
    name: "sub of another project's user",
    authorization: (c) => bearer(signed(c.header, { ...c.payload, sub: c.otherProjectUserId }, c.tokenKey)),
  },
  {
    name: 'sub missing',
    authorization: (c) => bearer(signed(c.header, without(c.payload, 'sub'), c.tokenKey)),
  },
  {
    name: 'sub as a number',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, sub: 1 }, c.tokenKey)),
  },
  {
    name: 'sub as an array',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, sub: [c.payload.sub] }, c.tokenKey)),
  },
  {
    name: 'exp missing',
    authorization: (c) => bearer(signed(c.header, without(c.payload, 'exp'), c.tokenKey)),
  },
  {
    name: 'exp as a string',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, exp: String(c.payload.exp) }, c.tokenKey)),
  },
  {
    name: 'exp with a fraction',
    authorization: (c) =>
      bearer(signed(c.header, { ...c.payload, exp: Number(c.payload.exp) + 0.5 }, c.tokenKey)),
  },
  {
    name: 'exp null',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, exp: null }, c.tokenKey)),
  },
  {
    name: 'exp in the past',
    authorization: (c) =>
      bearer(signed(c.header, { ...c.payload, exp: Number(c.payload.iat) - 1 }, c.tokenKey)),
    expect: { status: 401, code: 'TOKEN_EXPIRED' },
  },
  {
    name: 'iat missing',
    authorization: (c) => bearer(signed(c.header, without(c.payload, 'iat'), c.tokenKey)),
  },
  {
    name: 'iat as a string',
    authorization: (c) => bearer(signed(c.header, { ...c.payload, iat: String(c.payload.iat) }, c.tokenKey)),
  },
  {
    name: 'payload that is not JSON',
    authorization: (c) =>
      bearer(
        `${segments(c.token)[0]}.${Buffer.from('{"sub":').toString('base64url')}.${segments(c.token)[2]}`,
      ),
  },
  {
    name: 'payload a JSON array',
    authorization: (c) => bearer(signed(c.header, [c.payload] as unknown as Claims, c.tokenKey)),
  },
  {
    name: 'payload padded with =',
    authorization: (c) => bearer(`${segments(c.token)[0]}.${segments(c.token)[1]}=.${segments(c.token)[2]}`),
  },
  {
    name: 'sub of another user, not re-signed',
    authorization: (c) => bearer(unsigned(c.header, { ...c.payload, sub: c.userBId }, c.token)),
  },
  {
    name: 'aud of another project, not re-signed',
    authorization: (c) => bearer(unsigned(c.header, { ...c.payload, aud: c.otherProjectId }, c.token)),
  },
  {
    name: 'exp a year later, not re-signed',
    authorization: (c) =>
      bearer(unsigned(c.header, { ...c.payload, exp: Number(c.payload.exp) + 31_536_000 }, c.token)),
  },
  {
    name: 'iss changed, not re-signed',
    authorization: (c) => bearer(unsigned(c.header, { ...c.payload, iss: 'other' }, c.token)),
  },
  {
    name: 'an admin claim added, not re-signed',
    authorization: (c) => bearer(unsigned(c.header, { ...c.payload, role: 'admin' }, c.token)),
  },
];

/** The token as a whole and the Authorization header around it. */
const shapeCases: Case[] = [
  { name: 'two segments', authorization: (c) => bearer(segments(c.token).slice(0, 2).join('.')) },
  { name: 'four segments', authorization: (c) => bearer(`${c.token}.x`) },
  { name: 'a trailing dot', authorization: (c) => bearer(`${c.token}.`) },
  { name: 'a leading dot', authorization: (c) => bearer(`.${c.token}`) },
  { name: 'only dots', authorization: () => bearer('..') },
  { name: 'not a JWT', authorization: () => bearer('not-a-token') },
  {
    name: 'the signature of another genuine token',
    authorization: (c) =>
      bearer(`${segments(c.token).slice(0, 2).join('.')}.${segments(c.otherUserToken)[2]}`),
  },
  { name: "another project's genuine token", authorization: (c) => bearer(c.otherProjectToken) },
  {
    name: 'the token percent-encoded',
    authorization: (c) => bearer(encodeURIComponent(c.token).replace(/\./g, '%2E')),
  },
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
  authorization: (c) => {
    const [header, payload, signature] = segments(c.token);
    return bearer(`${header}.${payload}.${variant.apply(signature)}`);
  },
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
      const extended = unsigned(context.header, { ...context.payload, exp: exp + 3600 }, context.token);
      assertAnswer(await profile(bearer(extended)), invalid, 'a later exp, not re-signed, after expiry');
    } finally {
      clock.set(start);
    }
  });
});
