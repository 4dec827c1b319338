import { createSigner } from 'fast-jwt';
import type { Clock } from '../../src/domain/clock.ts';
import { createServiceKey } from '../../src/domain/identity/service-keys.ts';
import type { ApiClient } from '../support/api-client.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';
import { type CallerId, folderSharedRole, type Scope, sharedFolders, sharedRole } from './access-matrix.ts';

/** The Origin the matrix's project allows; browsers send it instead of the app secret. */
export const allowedOrigin = 'https://app.example.com';
export const password = 'correct horse battery';

type Account = { token: string; userId: string; email: string; password: string };
/** A file of the matrix: its id, the ETag of its upload and its upload link. */
export type MatrixFile = { id: string; etag: string; putUrl: string };
type Verified = MatrixFile & { downloadUrl: string };

/** The users, tokens, files and links every cell of the matrix is played with. */
export type MatrixWorld = {
  server: TestServer;
  /** The project under test; it allows `allowedOrigin`. */
  api: ApiClient;
  /** Another project on the same server. */
  other: ApiClient;
  accounts: Record<
    | 'creator'
    | 'userEntry'
    | 'roleEntry'
    | 'folderUserShare'
    | 'folderRoleShare'
    | 'admin'
    | 'stranger'
    | 'disabledUser'
    | 'otherProjectUser',
    Account
  >;
  /** Service keys: a live one of the project, one revoked since, and one of the other project. */
  serviceKeys: { live: string; revoked: string; otherProject: string };
  /** The tokens of the callers refused by the token barrier (none for `noToken`). */
  badTokens: Partial<Record<CallerId, string>>;
  /**
   * Verified files, shared with userEntry, disabledUser, otherProjectUser and the role `editors`;
   * their folder (`matrix/`) is shared with folderUserShare and the role `viewers`.
   */
  files: Record<Scope, Verified>;
  /** Data plane: uploads go to `upload` (unverified), downloads come from `files.user`. */
  upload: MatrixFile;
  otherUpload: MatrixFile;
  otherDownload: Verified;
  expiredUpload: MatrixFile;
  expiredDownloadUrl: string;
  /** A download link of a verified file, issued before the file's links were revoked. */
  revokedDownloadUrl: string;
  /** A fresh verified file of the creator, for each delete that may succeed. */
  freshFile(scope: Scope): Promise<MatrixFile>;
  /** The files refused deletes aim at, shared like `files` (their folder `decoy/` too). */
  decoys: Record<Scope, MatrixFile>;
  /** A folder of the creator's with one fresh file, for each folder move or delete that may succeed. */
  freshFolder(): Promise<string>;
  /** The folder refused folder moves and deletes aim at: the decoys' (`decoy/`). */
  decoyFolder: string;
  /** A refresh token of a new session of the account (each refresh spends one). */
  freshRefreshToken(account: Account): Promise<string>;
  /** An access token of a new session of the account (each bearer logout ends one). */
  freshAccessToken(account: Account): Promise<string>;
};

/** A clock the test can move: the server issues links and tokens on it. */
export type MovableClock = Clock & { offsetMs: number };

export async function buildMatrixWorld(): Promise<MatrixWorld & { clock: MovableClock }> {
  const clock: MovableClock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  const server = await startTestServer({}, {}, { clock });
  try {
    return { ...(await populate(server, clock)), clock };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function populate(server: TestServer, clock: MovableClock): Promise<MatrixWorld> {
  const api = await server.createProject('matrix', [allowedOrigin]);
  const other = await server.createProject('elsewhere');
  const { projects } = server.services.repositories;
  for (const client of [api, other]) {
    const project = await projects.findById(client.credentials.projectId);
    await projects.updateSettings(project!.id, { ...project!.settings, anonymousSignup: true });
  }
  const signup = async (client: ApiClient, name: string): Promise<Account> =>
    client.signup(`${name}@example.com`, password);
  const [creator, userEntry, roleEntry, folderUserShare, folderRoleShare, admin, stranger, disabledUser] =
    await Promise.all(
      ['creator', 'userentry', 'roleentry', 'folderuser', 'folderrole', 'admin', 'stranger', 'disabled'].map(
        (name) => signup(api, name),
      ),
    );
  const otherProjectUser = await signup(other, 'other');
  const users = server.services.repositories.users;
  await users.setRole(api.credentials.projectId, roleEntry!.userId, sharedRole);
  await users.setRole(api.credentials.projectId, folderRoleShare!.userId, folderSharedRole);
  await users.setRole(api.credentials.projectId, admin!.userId, 'admin');
  await users.setRole(other.credentials.projectId, otherProjectUser.userId, 'admin');

  let count = 0;
  const upload = async (filePath: string, scope: Scope = 'user', verify = true): Promise<MatrixFile> => {
    const requested = await api.call('POST', '/api/v1/file', {
      token: creator!.token,
      body: { filePath, permissionScope: scope },
    });
    if (requested.status !== 200) throw new Error(`upload request: ${requested.text}`);
    const { fileId, putFileUrl } = requested.body;
    const put = await fetch(putFileUrl, { method: 'PUT', body: `bytes of ${filePath}` });
    if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
    const etag = put.headers.get('etag') ?? '';
    if (verify) {
      const verified = await api.call('POST', `/api/v1/file/${fileId}/verify`, {
        token: creator!.token,
        body: { etag },
      });
      if (verified.status !== 200) throw new Error(`verify: ${verified.text}`);
    }
    return { id: fileId, etag, putUrl: putFileUrl };
  };
  const downloadUrl = async (file: MatrixFile) => {
    const got = await api.call('GET', `/api/v1/file/${file.id}`, { token: creator!.token });
    if (got.status !== 200) throw new Error(`download link: ${got.text}`);
    return got.body.url as string;
  };
  const verified = async (filePath: string, scope: Scope): Promise<Verified> => {
    const file = await upload(filePath, scope);
    return { ...file, downloadUrl: await downloadUrl(file) };
  };

  const files = {
    user: await verified('matrix/user.txt', 'user'),
    '*': await verified('matrix/star.txt', '*'),
  };
  const decoys = { user: await upload('decoy/user.txt', 'user'), '*': await upload('decoy/star.txt', '*') };
  for (const file of [...Object.values(files), ...Object.values(decoys)]) {
    // Sharing names users of the file's project only: another project's user gets into an
    // ACL by hand here, to show that even so it opens nothing.
    const entry = { scope: 'user', identifier: otherProjectUser.userId } as const;
    await server.services.repositories.files.addAclEntry(file.id, entry, new Date());
    for (const entry of [`user/${userEntry!.userId}`, `user/${disabledUser!.userId}`, `role/${sharedRole}`]) {
      const shared = await api.call('POST', `/api/v1/file/${file.id}/acl/${entry}`, {
        token: creator!.token,
      });
      if (shared.status !== 200) throw new Error(`share: ${shared.text}`);
    }
  }
  // The folder-share callers reach the files through their folders only (no file ACL names them).
  for (const path of sharedFolders) {
    for (const grantee of [{ user: folderUserShare!.userId }, { role: folderSharedRole }]) {
      const shared = await api.call('POST', '/api/v1/folders/share', {
        token: creator!.token,
        body: { path, ...grantee },
      });
      if (shared.status !== 200) throw new Error(`folder share: ${shared.text}`);
    }
  }
  await users.setEnabled(api.credentials.projectId, disabledUser!.userId, false);

  // Past artifacts come from the server itself, issued on a clock set two hours back.
  const ttlSeconds = Math.max(
    server.services.config.uploadLinkTtlSeconds,
    server.services.config.tokenTtlSeconds,
  );
  clock.offsetMs = -(ttlSeconds + 3600) * 1000;
  let past: { upload: MatrixFile; downloadUrl: string; token: string };
  try {
    const login = await api.call('POST', '/api/v1/auth/login', { body: { email: creator!.email, password } });
    past = {
      upload: await upload('uploads/expired.txt', 'user', false),
      downloadUrl: await downloadUrl(files.user),
      token: login.body.token,
    };
  } finally {
    clock.offsetMs = 0;
  }

  // Upload links are not revoked: the one cells PUT to goes through a revocation unchanged.
  const uploadTarget = await upload('uploads/u.txt', 'user', false);
  const revokedFile = await verified('revoked/v.txt', 'user');
  for (const file of [uploadTarget, revokedFile]) {
    const revoked = await api.call('POST', `/api/v1/file/${file.id}/links/revoke`, { token: creator!.token });
    if (revoked.status !== 204) throw new Error(`revoke: ${revoked.text}`);
  }

  const keys = server.services.repositories.serviceKeys;
  const keyOf = async (client: ApiClient, name: string) => {
    const project = await server.services.repositories.projects.findById(client.credentials.projectId);
    return (await createServiceKey(keys, project!, { name, clock })).key;
  };
  const serviceKeys = {
    live: await keyOf(api, 'matrix'),
    revoked: await keyOf(api, 'matrix-revoked'),
    otherProject: await keyOf(other, 'elsewhere'),
  };
  await keys.delete(api.credentials.projectId, 'matrix-revoked');

  return {
    server,
    api,
    other,
    serviceKeys,
    accounts: {
      creator: creator!,
      userEntry: userEntry!,
      roleEntry: roleEntry!,
      folderUserShare: folderUserShare!,
      folderRoleShare: folderRoleShare!,
      admin: admin!,
      stranger: stranger!,
      disabledUser: disabledUser!,
      otherProjectUser,
    },
    badTokens: {
      ...(await forgeTokens(server, creator!.userId, api, other)),
      expiredToken: past.token,
      otherProjectToken: otherProjectUser.token,
    },
    files,
    upload: uploadTarget,
    otherUpload: await upload('uploads/u2.txt', 'user', false),
    otherDownload: await verified('other/v2.txt', 'user'),
    expiredUpload: past.upload,
    expiredDownloadUrl: past.downloadUrl,
    revokedDownloadUrl: revokedFile.downloadUrl,
    freshFile: (scope) => upload(`delete/${++count}.txt`, scope),
    decoys,
    freshFolder: async () => {
      const folder = `folders/${++count}/`;
      await upload(`${folder}a.txt`);
      return folder;
    },
    decoyFolder: 'decoy/',
    freshRefreshToken: async (account) => (await startSessionOf(account)).refreshToken,
    freshAccessToken: async (account) => (await startSessionOf(account)).token,
  };

  async function startSessionOf(account: Account) {
    const { users } = server.services.repositories;
    const user =
      (await users.findById(api.credentials.projectId, account.userId)) ??
      (await users.findById(other.credentials.projectId, account.userId));
    if (!user) throw new Error('no such account');
    return server.services.identity.startSession(user, undefined, undefined, { method: 'password' });
  }
}

/** Tokens for the creator that the token barrier must refuse, each wrong in one way only. */
async function forgeTokens(server: TestServer, userId: string, api: ApiClient, other: ApiClient) {
  const [key] = await server.services.repositories.signingKeys.list('token');
  if (!key) throw new Error('no token key');
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: userId, aud: api.credentials.projectId, iss: 'coffer', iat: now, exp: now + 3600 };
  const sign = (options: { key?: Buffer | string; algorithm?: 'HS256' | 'HS512' }, payload = claims) =>
    createSigner({ key: options.key ?? key.secret, algorithm: options.algorithm ?? 'HS256', kid: key.id })(
      payload,
    );
  const unsigned = (payload: object) =>
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: key.id })).toString('base64url')}.` +
    `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
  return {
    forgedToken: sign({ key: Buffer.alloc(32, 7) }),
    algNoneToken: unsigned(claims),
    otherAlgorithmToken: sign({ algorithm: 'HS512' }),
    wrongIssuer: sign({}, { ...claims, iss: 'someone-else' }),
    wrongAudience: sign({}, { ...claims, aud: other.credentials.projectId }),
  };
}
