import type { ApiClient } from './api-client.ts';

/** What the valid requests are built from: a real user, real files and real links. */
export type FuzzFixture = {
  appId: string;
  appSecret: string;
  /** Another project's credentials and user, when the server has one. */
  otherAppId: string;
  otherAppSecret: string;
  otherToken: string;
  allowedOrigin: string;
  email: string;
  password: string;
  token: string;
  /** Spent by the first refresh; later ones are reuses (then the family is revoked). */
  refreshToken: string;
  userId: string;
  strangerToken: string;
  strangerId: string;
  verifiedFileId: string;
  unverifiedFileId: string;
  etag: string;
  /** Paths and queries of the signed links (gateway only); several upload links spread the writes. */
  uploadLinks: string[];
  verifiedUploadLink: string;
  downloadLink: string | undefined;
};

const password = 'correct horse battery';

/**
 * Answers a function that makes a fresh fixture through the API, as any client would: the
 * users sign up once (argon2 is slow), the files and links are new on every call.
 */
export function createFuzzFixtures(
  client: ApiClient,
  options: { other?: ApiClient; allowedOrigin: string },
): () => Promise<FuzzFixture> {
  let users: Promise<{ owner: SignedUp; stranger: SignedUp; otherToken: string }> | undefined;
  const next = async (signedUpAgain = false): Promise<FuzzFixture> => {
    users ??= (async () => ({
      owner: await client.signup(`fuzz-owner-${Date.now()}@example.com`, password),
      stranger: await client.signup(`fuzz-stranger-${Date.now()}@example.com`, password),
      otherToken: options.other ? (await options.other.signup()).token : '',
    }))();
    const signedUp = await users;
    // Fresh sessions for every fixture: a fuzzed logout or password change of the last batch
    // ended its sessions, access tokens included. A fuzzed DELETE /api/v1/user (a session that
    // signed in within 5 minutes needs no other proof) ended an account: new users then, once.
    const owner = await logIn(client, signedUp.owner).catch(() => undefined);
    const stranger = owner && (await logIn(client, signedUp.stranger).catch(() => undefined));
    if (!owner || !stranger) {
      if (signedUpAgain) throw new Error('the fuzz users cannot log in, even new ones');
      users = undefined;
      return next(true);
    }
    const { otherToken } = signedUp;
    const files = await createFiles(client, owner.token);
    return {
      appId: client.credentials.appId,
      appSecret: client.credentials.appSecret,
      otherAppId: options.other?.credentials.appId ?? 'unknown-app',
      otherAppSecret: options.other?.credentials.appSecret ?? 'unknown-secret',
      otherToken: otherToken || stranger.token,
      allowedOrigin: options.allowedOrigin,
      email: owner.email,
      password,
      token: owner.token,
      refreshToken: owner.refreshToken,
      userId: owner.userId,
      strangerToken: stranger.token,
      strangerId: stranger.userId,
      ...files,
    };
  };
  return () => next();
}

type SignedUp = Awaited<ReturnType<ApiClient['signup']>>;

/** A new session of a signed-up user (the password is the fixture's: a fuzzed change keeps it). */
async function logIn(client: ApiClient, user: SignedUp): Promise<SignedUp> {
  const answer = await client.call('POST', '/api/v1/auth/login', {
    body: { email: user.email, password: user.password },
  });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
  return { ...user, token: answer.body.token, refreshToken: answer.body.refreshToken };
}

/** A verified file with its download link, and upload links: unverified ones and a verified one. */
async function createFiles(client: ApiClient, token: string) {
  const folder = `fuzz/${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const verified = await client.uploadFile(token, `${folder}/verified.txt`, 'fuzz me');
  const read = await client.call('GET', `/api/v1/file/${verified._id}`, { token });
  const requested = await Promise.all(
    Array.from({ length: 7 }, (_, i) =>
      client.call('POST', '/api/v1/file', { token, body: { filePath: `${folder}/upload-${i}.txt` } }),
    ),
  );
  const [closed, ...open] = requested;
  const put = await fetch(closed!.body.putFileUrl, { method: 'PUT', body: 'done' });
  const verify = await client.call('POST', `/api/v1/file/${closed!.body.fileId}/verify`, {
    token,
    body: { etag: put.headers.get('etag') },
  });
  if (verify.status !== 200) throw new Error(`fixture: verify failed: ${verify.text}`);
  // Links on this server's gateway, as path and query (an S3 store signs its own downloads).
  const toLink = (url: string) => {
    const parsed = new URL(url);
    return parsed.origin === new URL(client.baseUrl).origin
      ? `${parsed.pathname}${parsed.search}`
      : undefined;
  };
  return {
    verifiedFileId: verified._id,
    unverifiedFileId: open[0]!.body.fileId as string,
    etag: read.body.etag as string,
    uploadLinks: open.map((response) => toLink(response.body.putFileUrl)!),
    verifiedUploadLink: toLink(closed!.body.putFileUrl)!,
    downloadLink: toLink(read.body.url),
  };
}
