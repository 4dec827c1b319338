import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectedEtag } from '../support/byte-streams.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { closeRawConnections, rawRequest } from '../support/raw-request.ts';
import { assertAnswer, assertEveryCase, type Expected } from './expected-answer.ts';
import { base64UrlAlphabet, signatureVariants } from './signature-variants.ts';

/**
 * The parts of a gateway link as issued: /blob/v1/files/<id>?exp=<exp>[&gen=<gen>]&kid=<kid>&sig=<sig>
 * (download links carry their file's links generation; upload links have none).
 */
type Link = { id: string; exp: string; gen?: string; ver?: string; kid: string; sig: string };
/** What a case sends instead: the raw path and query. */
type Mutation = { name: string; mutate: (link: Link, other: Link) => string; expect?: Expected };

const invalid: Expected = { status: 403, code: 'INVALID_SIGNATURE' };
const noRoute: Expected = { status: 404, code: 'NOT_FOUND' };

const path = (id: string) => `/blob/v1/files/${id}`;
const query = (link: Pick<Link, 'exp' | 'gen' | 'ver' | 'kid' | 'sig'>) =>
  `exp=${link.exp}${link.gen === undefined ? '' : `&gen=${link.gen}`}${link.ver === undefined ? '' : `&ver=${link.ver}`}&kid=${link.kid}&sig=${link.sig}`;
const spell = (link: Link, changes: Partial<Link>) => {
  const changed = { ...link, ...changes };
  return `${path(changed.id)}?${query(changed)}`;
};
const percentEncode = (text: string) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const otherChar = (c: string) => base64UrlAlphabet[(base64UrlAlphabet.indexOf(c) + 1) % 64] as string;

/** Every way of spelling a link otherwise than it was issued; all must be refused. */
const mutations: Mutation[] = [
  // the file id in the path
  { name: 'id of another file', mutate: (l, o) => spell(l, { id: o.id }) },
  {
    name: 'id, first character changed',
    mutate: (l) => spell(l, { id: otherChar(l.id[0] as string) + l.id.slice(1) }),
  },
  {
    name: 'id, last character changed',
    mutate: (l) => spell(l, { id: l.id.slice(0, -1) + otherChar(l.id.at(-1) as string) }),
  },
  { name: 'id, case swapped', mutate: (l) => spell(l, { id: swapCase(l.id) }) },
  { name: 'id, one character appended', mutate: (l) => spell(l, { id: `${l.id}A` }) },
  { name: 'id, truncated', mutate: (l) => spell(l, { id: l.id.slice(0, -1) }) },
  {
    name: 'id, first character percent-encoded',
    mutate: (l) => spell(l, { id: percentEncode(l.id[0] as string) + l.id.slice(1) }),
  },
  { name: 'id, wholly percent-encoded', mutate: (l) => spell(l, { id: percentEncode(l.id) }) },
  { name: 'id with a trailing slash', mutate: (l) => `${path(l.id)}/?${query(l)}` },
  { name: 'id with an encoded slash', mutate: (l) => spell(l, { id: `${l.id}%2F` }) },
  { name: 'id with a NUL', mutate: (l) => spell(l, { id: `${l.id}%00` }) },
  {
    name: 'id of another file, then the id',
    mutate: (l, o) => `${path(o.id)}/${l.id}?${query(l)}`,
    expect: noRoute,
  },
  {
    name: 'a dot segment before the id',
    mutate: (l) => `/blob/v1/files/./${l.id}?${query(l)}`,
    expect: noRoute,
  },
  {
    name: 'a doubled slash before the id',
    mutate: (l) => `/blob/v1/files//${l.id}?${query(l)}`,
    expect: noRoute,
  },
  { name: 'no id at all', mutate: (l) => `/blob/v1/files/?${query(l)}`, expect: noRoute },
  { name: 'prefix in capitals', mutate: (l) => `/BLOB/v1/files/${l.id}?${query(l)}`, expect: noRoute },
  // exp
  { name: 'exp + 1', mutate: (l) => spell(l, { exp: String(Number(l.exp) + 1) }) },
  { name: 'exp - 1', mutate: (l) => spell(l, { exp: String(Number(l.exp) - 1) }) },
  { name: 'exp a year later', mutate: (l) => spell(l, { exp: String(Number(l.exp) + 31_536_000) }) },
  { name: 'exp 0', mutate: (l) => spell(l, { exp: '0' }) },
  { name: 'exp with a leading zero', mutate: (l) => spell(l, { exp: `0${l.exp}` }) },
  { name: 'exp with two leading zeros', mutate: (l) => spell(l, { exp: `00${l.exp}` }) },
  { name: 'exp with a plus sign', mutate: (l) => spell(l, { exp: `%2B${l.exp}` }) },
  { name: 'exp with a literal plus', mutate: (l) => spell(l, { exp: `+${l.exp}` }) },
  { name: 'exp negative', mutate: (l) => spell(l, { exp: `-${l.exp}` }) },
  { name: 'exp with a decimal point', mutate: (l) => spell(l, { exp: `${l.exp}.0` }) },
  { name: 'exp in exponent notation', mutate: (l) => spell(l, { exp: `${Number(l.exp) / 1e9}e9` }) },
  { name: 'exp in hexadecimal', mutate: (l) => spell(l, { exp: `0x${Number(l.exp).toString(16)}` }) },
  { name: 'exp with an encoded space', mutate: (l) => spell(l, { exp: `%20${l.exp}` }) },
  { name: 'exp with an encoded NUL', mutate: (l) => spell(l, { exp: `${l.exp}%00` }) },
  { name: 'exp percent-encoded', mutate: (l) => spell(l, { exp: percentEncode(l.exp) }) },
  { name: 'exp of 13 digits', mutate: (l) => spell(l, { exp: `${l.exp}000` }) },
  { name: 'exp empty', mutate: (l) => spell(l, { exp: '' }) },
  { name: 'exp missing', mutate: (l) => `${path(l.id)}?kid=${l.kid}&sig=${l.sig}` },
  // kid
  { name: 'kid unknown', mutate: (l) => spell(l, { kid: 'link2' }) },
  { name: 'kid of the token key', mutate: (l) => spell(l, { kid: 'token1' }) },
  { name: 'kid in capitals', mutate: (l) => spell(l, { kid: l.kid.toUpperCase() }) },
  { name: 'kid percent-encoded', mutate: (l) => spell(l, { kid: percentEncode(l.kid) }) },
  { name: 'kid with a trailing space', mutate: (l) => spell(l, { kid: `${l.kid}%20` }) },
  { name: 'kid with junk appended', mutate: (l) => spell(l, { kid: `${l.kid}x` }) },
  { name: 'kid truncated', mutate: (l) => spell(l, { kid: l.kid.slice(0, -1) }) },
  { name: 'kid empty', mutate: (l) => spell(l, { kid: '' }) },
  { name: 'kid missing', mutate: (l) => `${path(l.id)}?exp=${l.exp}&sig=${l.sig}` },
  // sig, as a whole (character by character follows, from signatureVariants)
  { name: 'sig empty', mutate: (l) => spell(l, { sig: '' }) },
  { name: 'sig missing', mutate: (l) => `${path(l.id)}?exp=${l.exp}&kid=${l.kid}` },
  { name: 'sig of the other file', mutate: (l, o) => spell(l, { sig: o.sig, exp: o.exp }) },
  { name: 'sig case swapped', mutate: (l) => spell(l, { sig: swapCase(l.sig) }) },
  {
    name: 'sig, first character percent-encoded',
    mutate: (l) => spell(l, { sig: percentEncode(l.sig[0] as string) + l.sig.slice(1) }),
  },
  { name: 'sig wholly percent-encoded', mutate: (l) => spell(l, { sig: percentEncode(l.sig) }) },
  { name: 'sig with an encoded NUL', mutate: (l) => spell(l, { sig: `${l.sig}%00` }) },
  { name: 'sig with an encoded space', mutate: (l) => spell(l, { sig: `${l.sig}%20` }) },
  // the query as a whole
  { name: 'no query', mutate: (l) => path(l.id) },
  { name: 'empty query', mutate: (l) => `${path(l.id)}?` },
  { name: 'an extra parameter after', mutate: (l) => `${spell(l, {})}&a=b` },
  { name: 'an extra parameter before', mutate: (l) => `${path(l.id)}?a=b&${query(l)}` },
  { name: 'a cache-buster', mutate: (l) => `${spell(l, {})}&_=1700000000000` },
  { name: 'a trailing &', mutate: (l) => `${spell(l, {})}&` },
  { name: 'a leading &', mutate: (l) => `${path(l.id)}?&${query(l)}` },
  { name: 'a doubled &', mutate: (l) => `${path(l.id)}?exp=${l.exp}&&kid=${l.kid}&sig=${l.sig}` },
  { name: 'a doubled ?', mutate: (l) => `${path(l.id)}??${query(l)}` },
  { name: '; instead of &', mutate: (l) => `${path(l.id)}?exp=${l.exp};kid=${l.kid};sig=${l.sig}` },
  {
    name: 'encoded & between parameters',
    mutate: (l) => `${path(l.id)}?exp=${l.exp}%26kid=${l.kid}%26sig=${l.sig}`,
  },
  {
    name: 'parameters reordered: kid, exp, sig',
    mutate: (l) => `${path(l.id)}?kid=${l.kid}&exp=${l.exp}&sig=${l.sig}`,
  },
  {
    name: 'parameters reordered: sig, kid, exp',
    mutate: (l) => `${path(l.id)}?sig=${l.sig}&kid=${l.kid}&exp=${l.exp}`,
  },
  {
    name: 'parameter names in capitals',
    mutate: (l) => `${path(l.id)}?EXP=${l.exp}&KID=${l.kid}&SIG=${l.sig}`,
  },
  {
    name: 'parameter name percent-encoded',
    mutate: (l) => `${path(l.id)}?%65xp=${l.exp}&kid=${l.kid}&sig=${l.sig}`,
  },
  {
    name: 'sig as an array parameter',
    mutate: (l) => `${path(l.id)}?exp=${l.exp}&kid=${l.kid}&sig[]=${l.sig}`,
  },
  { name: 'exp duplicated', mutate: (l) => `${spell(l, {})}&exp=${l.exp}` },
  { name: 'kid duplicated', mutate: (l) => `${spell(l, {})}&kid=${l.kid}` },
  { name: 'sig duplicated', mutate: (l) => `${spell(l, {})}&sig=${l.sig}` },
  { name: 'a later exp added', mutate: (l) => `${spell(l, {})}&exp=${Number(l.exp) + 3600}` },
  { name: 'a later exp first', mutate: (l) => `${path(l.id)}?exp=${Number(l.exp) + 3600}&${query(l)}` },
  { name: 'another kid first', mutate: (l) => `${path(l.id)}?kid=link2&${query(l)}` },
  { name: 'a junk sig first', mutate: (l) => `${path(l.id)}?sig=junk&${query(l)}` },
  { name: 'the whole query twice', mutate: (l) => `${spell(l, {})}&${query(l)}` },
];

/** The links generation of a download link: every other spelling or value is refused too. */
const generationMutations: Mutation[] = [
  { name: 'gen + 1', mutate: (l) => spell(l, { gen: String(Number(l.gen) + 1) }) },
  { name: 'gen + 1000', mutate: (l) => spell(l, { gen: String(Number(l.gen) + 1000) }) },
  { name: 'gen with a leading zero', mutate: (l) => spell(l, { gen: `0${l.gen}` }) },
  { name: 'gen negative', mutate: (l) => spell(l, { gen: `-${l.gen}` }) },
  { name: 'gen empty', mutate: (l) => spell(l, { gen: '' }) },
  { name: 'gen of 13 digits', mutate: (l) => spell(l, { gen: `1${'0'.repeat(12)}` }) },
  { name: 'gen percent-encoded', mutate: (l) => spell(l, { gen: percentEncode(l.gen ?? '') }) },
  // Dropped, the link would be one issued before generations (v1): another signed string.
  { name: 'gen missing', mutate: (l) => spell(l, { gen: undefined }) },
  { name: 'gen duplicated', mutate: (l) => `${spell(l, {})}&gen=${l.gen}` },
  {
    name: 'gen after kid',
    mutate: (l) => `${path(l.id)}?exp=${l.exp}&kid=${l.kid}&gen=${l.gen}&sig=${l.sig}`,
  },
  { name: 'gen first', mutate: (l) => `${path(l.id)}?gen=${l.gen}&exp=${l.exp}&kid=${l.kid}&sig=${l.sig}` },
];

/**
 * The version a download link names (issue 38): another version's id, or any other spelling,
 * is another signed string; dropped, the link would be a v2 one (the current version's).
 */
const versionMutations: Mutation[] = [
  { name: 'ver of another id', mutate: (l) => spell(l, { ver: `${l.ver?.slice(0, -1)}x` }) },
  { name: 'ver missing', mutate: (l) => spell(l, { ver: undefined }) },
  { name: 'ver empty', mutate: (l) => spell(l, { ver: '' }) },
  { name: 'ver percent-encoded', mutate: (l) => spell(l, { ver: percentEncode(l.ver ?? '') }) },
  { name: 'ver duplicated', mutate: (l) => `${spell(l, {})}&ver=${l.ver}` },
  {
    name: 'ver before gen',
    mutate: (l) => `${path(l.id)}?exp=${l.exp}&ver=${l.ver}&gen=${l.gen}&kid=${l.kid}&sig=${l.sig}`,
  },
];

/** The signature changed character by character, and re-encoded in every lenient spelling. */
const signatureMutations: Mutation[] = signatureVariants.map((variant) => ({
  name: `sig: ${variant.name}`,
  mutate: (l) => spell(l, { sig: variant.apply(l.sig) }),
}));

const toLink = (url: string): Link => {
  const parsed = new URL(url);
  const { exp, gen, ver, kid, sig } = Object.fromEntries(parsed.searchParams) as Record<string, string>;
  const id = parsed.pathname.split('/').at(-1) as string;
  return { id, exp, ...(gen !== undefined && { gen }), ...(ver !== undefined && { ver }), kid, sig } as Link;
};

describe('tampering with signed links', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let token: string;
  let download: Link; // of a verified file
  let otherDownload: Link; // of another verified file
  let upload: Link; // of an unverified file
  let otherUpload: Link; // of another unverified file

  /** A download link whose signature holds a `-` or `_`, so that the standard-alphabet variant differs. */
  const downloadLinkOf = async (fileId: string) => {
    for (let seconds = 600; ; seconds++) {
      const got = await server.client.call('GET', `/api/v1/file/${fileId}?expiresInSeconds=${seconds}`, {
        token,
      });
      assert.equal(got.status, 200, got.text);
      const link = toLink(got.body.url);
      if (/[-_]/.test(link.sig)) return link;
    }
  };
  const uploadLinkOf = async (filePath: string) => {
    for (;;) {
      const requested = await server.client.call('POST', '/api/v1/file', { token, body: { filePath } });
      assert.equal(requested.status, 200, requested.text);
      const link = toLink(requested.body.putFileUrl);
      if (/[-_]/.test(link.sig)) return link;
      clock.advance(1); // another second, another signature
      filePath = `again-${filePath}`;
    }
  };
  const get = (pathAndQuery: string) => rawRequest(server.baseUrl, { method: 'GET', path: pathAndQuery });
  const put = (pathAndQuery: string, body = 'tampered upload') =>
    rawRequest(server.baseUrl, {
      method: 'PUT',
      path: pathAndQuery,
      headers: { 'content-type': 'text/plain' },
      body,
    });
  const head = (pathAndQuery: string) => rawRequest(server.baseUrl, { method: 'HEAD', path: pathAndQuery });

  before(async () => {
    server = await startTestServer({}, {}, { clock });
    token = (await server.client.signup()).token;
    const file = await server.client.uploadFile(token, 'tamper/a.txt', 'the genuine content');
    const other = await server.client.uploadFile(token, 'tamper/b.txt', 'another file');
    download = await downloadLinkOf(file._id);
    otherDownload = await downloadLinkOf(other._id);
    upload = await uploadLinkOf('tamper/unverified.txt');
    otherUpload = await uploadLinkOf('tamper/other-unverified.txt');
  });
  after(async () => {
    closeRawConnections();
    await server.stop();
  });

  it('the genuine links work (so that every refusal below is the tampering)', async () => {
    const got = await get(spell(download, {}));
    assert.equal(got.status, 200, got.text);
    assert.equal(got.text, 'the genuine content');
    assert.equal((await head(spell(download, {}))).status, 200);
    const putAnswer = await put(spell(upload, {}), 'the genuine upload');
    assert.equal(putAnswer.status, 200, putAnswer.text);
  });

  const cases = [...mutations, ...signatureMutations];
  const downloadCases = [...cases, ...generationMutations, ...versionMutations];
  it(`download links: ${downloadCases.length} spellings refused`, async () => {
    assert.equal(download.gen, '0', 'a download link carries its generation');
    await assertEveryCase(downloadCases, async ({ name, mutate, expect = invalid }) => {
      const tampered = mutate(download, otherDownload);
      assert.notEqual(tampered, spell(download, {}), `${name} must change the link`);
      return { answer: await get(tampered), expected: expect };
    });
  });

  it(`upload links: ${cases.length} spellings refused, nothing stored`, async () => {
    await assertEveryCase(cases, async ({ mutate, expect = invalid }) => ({
      answer: await put(mutate(upload, otherUpload)),
      expected: expect,
    }));
    // The tampered PUTs committed nothing: the pending upload is still what the genuine PUT sent.
    const stored = await server.services.repositories.files.findById(upload.id);
    assert.equal(stored?.pendingUpload?.etag, expectedEtag('the genuine upload'));
  });

  it('an upload link has no generation: one added is INVALID_SIGNATURE, nothing stored', async () => {
    assert.equal(upload.gen, undefined);
    for (const gen of ['0', '1']) assertAnswer(await put(spell(upload, { gen }), 'with a gen'), invalid, gen);
  });

  it('a link is for one operation: download ↔ upload swapped is INVALID_SIGNATURE', async () => {
    assertAnswer(await put(spell(download, {})), invalid, 'download link used to PUT');
    assertAnswer(await get(spell(upload, {})), invalid, 'upload link used to GET');
    assert.equal((await head(spell(upload, {}))).status, 403, 'upload link used to HEAD');
  });

  it('expiry with an injected clock: accepted at exp − 1 s and at exp, LINK_EXPIRED at exp + 1 s', async () => {
    const start = clock.seconds;
    try {
      for (const [link, send] of [
        [download, get],
        [upload, put],
      ] as const) {
        const exp = Number(link.exp);
        clock.set(exp - 1);
        assert.equal((await send(spell(link, {}))).status, 200, 'exp − 1 s');
        clock.set(exp);
        assert.equal((await send(spell(link, {}))).status, 200, 'exp');
        clock.set(exp + 1);
        assertAnswer(await send(spell(link, {})), { status: 403, code: 'LINK_EXPIRED' }, 'exp + 1 s');
        // security: once expired, a moved expiry is a forgery, not an expired link
        assertAnswer(
          await send(spell(link, { exp: String(exp + 3600) })),
          invalid,
          'a later exp after expiry',
        );
      }
    } finally {
      clock.set(start);
    }
  });
});
