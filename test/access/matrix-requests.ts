import {
  type CallerId,
  type EndpointId,
  endpoints,
  expectedOutcome,
  type Scope,
  sharedRole,
} from './access-matrix.ts';
import { allowedOrigin, type MatrixWorld, password } from './matrix-world.ts';

/** One cell's HTTP request. */
export type CellRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
};

/** The session (`sid`) an access token was issued with. */
function sessionOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
}

/** An id no user has: unsharing it is a no-op for whoever may manage the file. */
const absentUserId = 'AAAAAAAAAAAAAAAAAAAAAA';
let serial = 0;

/** Builds the request `caller` sends to `endpoint` (on the file of `scope` where one is involved). */
export async function toCellRequest(
  world: MatrixWorld,
  caller: CallerId,
  endpoint: EndpointId,
  scope: Scope,
): Promise<CellRequest> {
  const { method, group } = endpoints[endpoint];
  if (group === 'gateway' || group === 'gatewayPreflight') return toDataPlaneRequest(world, caller, endpoint);
  const headers = credentialsOf(world, caller);
  const json = (body: unknown) => {
    headers['content-type'] = 'application/json';
    return JSON.stringify(body);
  };
  const fileId = world.files[scope].id;
  const base = world.server.baseUrl;
  const request = (path: string, body?: string): CellRequest => ({
    method,
    url: `${base}${path}`,
    headers,
    body,
  });
  switch (endpoint) {
    case 'login':
      return request('/api/v1/auth/login', json({ email: accountOf(world, caller).email, password }));
    case 'signup':
      return request('/api/v1/auth/signup', json({ email: `signup-${++serial}@example.com`, password }));
    case 'signupAnonymous':
      return request('/api/v1/auth/signup/anonymous');
    case 'refreshSession':
      return request(
        '/api/v1/auth/refresh',
        json({ refreshToken: await world.freshRefreshToken(accountOf(world, caller)) }),
      );
    case 'logout': {
      // A logout ends its token's session (issue 23): the cell ends a new session of the
      // caller's account, not the one every other cell plays with.
      const account = Object.values(world.accounts).find(
        ({ token }) => headers.authorization === `Bearer ${token}`,
      );
      if (account) headers.authorization = `Bearer ${await world.freshAccessToken(account)}`;
      return request('/api/v1/auth/logout');
    }
    // To the same password: the world stays as built (the policy has no rule against reuse).
    case 'changePassword':
      return request('/api/v1/auth/password', json({ oldPassword: password, newPassword: password }));
    case 'getProfile':
      return request('/api/v1/user');
    case 'requestEmailChange':
      return request('/api/v1/user/email', json({ newEmail: `moved-${++serial}@example.com`, password }));
    case 'listSessions':
    case 'endOtherSessions':
      return request('/api/v1/user/sessions');
    case 'endSession': {
      // As a logout: the cell ends a new session of the caller's account, never the one it calls with.
      const account = Object.values(world.accounts).find(
        ({ token }) => headers.authorization === `Bearer ${token}`,
      );
      const sessionId = account ? sessionOf(await world.freshAccessToken(account)) : 'no-such-session';
      return request(`/api/v1/user/sessions/${sessionId}`);
    }
    case 'listPasskeys':
      return request('/api/v1/user/passkeys');
    case 'startTotp':
      return request('/api/v1/user/mfa/totp', json({ password }));
    case 'findUser':
      return request(`/api/v1/users?email=${encodeURIComponent(world.accounts.creator.email)}`);
    case 'requestUpload':
      return request('/api/v1/file', json({ filePath: `requests/${++serial}.txt` }));
    case 'listFiles':
      return request('/api/v1/file?filePath=matrix/');
    // The caller's own root (test/folders plays other owners and paths).
    case 'browseFolder':
      return request('/api/v1/folders');
    case 'getFile':
      return request(`/api/v1/file/${fileId}`);
    case 'verifyUpload':
      return request(`/api/v1/file/${fileId}/verify`, json({ etag: world.files[scope].etag }));
    // Sharing an entry again and removing an absent one change nothing: the world stays as built.
    case 'shareWithUser':
      return request(`/api/v1/file/${fileId}/acl/user/${world.accounts.userEntry.userId}`);
    case 'shareWithEmail':
      return request(
        `/api/v1/file/${fileId}/acl/email/${encodeURIComponent(world.accounts.userEntry.email)}`,
      );
    case 'shareWithRole':
      return request(`/api/v1/file/${fileId}/acl/role/${sharedRole}`);
    case 'unshareUser':
      return request(`/api/v1/file/${fileId}/acl/user/${absentUserId}`);
    case 'unshareRole':
      return request(`/api/v1/file/${fileId}/acl/role/nobody-has-this-role`);
    case 'deleteFile': {
      // A delete that may succeed gets a file of its own; a refused one aims at a decoy that
      // must survive (if it does not, that cell fails, and so do the refused ones after it).
      const doomed = expectedOutcome(caller, endpoint, scope) === 'ok';
      return request(`/api/v1/file/${doomed ? (await world.freshFile(scope)).id : world.decoys[scope].id}`);
    }
    // The same customData every time: the world's records keep what they show.
    case 'updateFile':
      return request(`/api/v1/file/${fileId}`, json({ customData: { matrix: true } }));
    // Like a delete: a revocation that may succeed gets a file of its own (the world's links stay).
    case 'revokeLinks': {
      const revoked = expectedOutcome(caller, endpoint, scope) === 'ok';
      const target = revoked ? (await world.freshFile(scope)).id : world.decoys[scope].id;
      return request(`/api/v1/file/${target}/links/revoke`);
    }
    case 'copyFile':
      return request(`/api/v1/file/${fileId}/copy`, json({ filePath: `copies/${++serial}.txt` }));
    // Like a delete: a move that may succeed moves a file of its own (the world's paths stay).
    case 'moveFile': {
      const moved = expectedOutcome(caller, endpoint, scope) === 'ok';
      const target = moved ? (await world.freshFile(scope)).id : world.decoys[scope].id;
      return request(`/api/v1/file/${target}/move`, json({ filePath: `moved/${++serial}.txt` }));
    }
    case 'listVersions':
      return request(`/api/v1/file/${fileId}/versions`);
    // A version upload changes nothing until verified: the world's files stay as they are.
    case 'requestVersion':
      return request(`/api/v1/file/${fileId}/versions`, json({}));
    // Like a delete: a hold that may succeed holds a file of its own (the world's files stay
    // movable); a refused one aims at a decoy. Lifting the hold of a file not held changes nothing.
    case 'holdFile':
    case 'releaseFile': {
      const changed = expectedOutcome(caller, endpoint, scope) === 'ok';
      const target = changed ? (await world.freshFile(scope)).id : world.decoys[scope].id;
      return request(
        `/api/v1/file/${target}/hold`,
        endpoint === 'holdFile' ? json({ reason: 'matrix' }) : undefined,
      );
    }
    // Releasing a file not quarantined changes nothing: the world's file itself.
    case 'releaseQuarantine':
      return request(`/api/v1/file/${fileId}/quarantine/release`);
    // An id no file has: the barriers are what this cell plays (its outcome is per id).
    case 'deleteFiles':
      return request('/api/v1/file/delete', json({ fileIds: [absentUserId] }));
    // Like a delete: a folder change that may succeed changes a folder of its own; a refused
    // one aims at the decoys' folder, which must survive.
    case 'moveFolder':
    case 'deleteFolder': {
      const changed = expectedOutcome(caller, endpoint, scope) === 'ok';
      const folder = changed ? await world.freshFolder() : world.decoyFolder;
      const owner = world.accounts.creator.userId;
      return endpoint === 'moveFolder'
        ? request('/api/v1/folders/move', json({ owner, from: folder, to: `moved-folders/${++serial}/` }))
        : request('/api/v1/folders/delete', json({ owner, path: folder }));
    }
    case 'readAudit':
      return request('/api/v1/audit');
    case 'listWebhooks':
      return request('/api/v1/webhooks');
    case 'controlPreflight':
      headers['access-control-request-method'] = 'POST';
      headers['access-control-request-headers'] = 'sb-app-id, authorization, content-type';
      return request('/api/v1/file');
    case 'healthz':
    case 'readyz':
      return request(`/${endpoint}`);
    default:
      throw new Error(`no request for ${endpoint}`);
  }
}

/** The account a caller logs in with: its own, or the creator's for callers that are not users. */
function accountOf(world: MatrixWorld, caller: CallerId) {
  return caller in world.accounts
    ? world.accounts[caller as keyof MatrixWorld['accounts']]
    : world.accounts.creator;
}

/** The control-plane headers of each caller: app credentials, Origin and token. */
function credentialsOf(world: MatrixWorld, caller: CallerId): Record<string, string> {
  const { appId, appSecret } = world.api.credentials;
  const app = { 'sb-app-id': appId, 'sb-app-secret': appSecret };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const creator = bearer(world.accounts.creator.token);
  switch (caller) {
    case 'noAppId':
      return { ...creator };
    case 'appIdOnly':
      return { 'sb-app-id': appId, ...creator };
    case 'unknownAppId':
      return {
        'sb-app-id': `${appId.slice(0, -1)}${appId.endsWith('A') ? 'B' : 'A'}`,
        'sb-app-secret': appSecret,
        ...creator,
      };
    case 'wrongSecret':
      return {
        'sb-app-id': appId,
        'sb-app-secret': `${appSecret.startsWith('A') ? 'B' : 'A'}${appSecret.slice(1)}`,
        ...creator,
      };
    case 'disallowedOrigin':
      return { 'sb-app-id': appId, origin: 'https://evil.example.com', ...creator };
    case 'secretFromOtherOrigin':
      return { ...app, origin: 'https://evil.example.com', ...creator };
    case 'allowedOrigin':
      return { 'sb-app-id': appId, origin: allowedOrigin, ...creator };
    case 'noToken':
      return { ...app };
    case 'serviceKey':
      return { 'sb-app-id': appId, ...bearer(world.serviceKeys.live) };
    case 'serviceKeyFromOrigin':
      return { 'sb-app-id': appId, origin: allowedOrigin, ...bearer(world.serviceKeys.live) };
    case 'revokedServiceKey':
      return { 'sb-app-id': appId, ...bearer(world.serviceKeys.revoked) };
    case 'otherProjectServiceKey':
      return { 'sb-app-id': appId, ...bearer(world.serviceKeys.otherProject) };
    case 'otherProjectUser':
      return {
        'sb-app-id': world.other.credentials.appId,
        'sb-app-secret': world.other.credentials.appSecret,
        ...bearer(world.accounts.otherProjectUser.token),
      };
  }
  if (caller in world.accounts) return { ...app, ...bearer(accountOf(world, caller).token) };
  const token = world.badTokens[caller];
  if (token) return { ...app, ...bearer(token) };
  return {}; // link holders hold a link, nothing else
}

/** The link each caller brings to the data plane: uploads target `world.upload`, downloads `files.user`. */
function toDataPlaneRequest(world: MatrixWorld, caller: CallerId, endpoint: EndpointId): CellRequest {
  const upload = endpoint === 'putBlob' || endpoint === 'blobPreflight';
  const target = upload ? world.upload : world.files.user;
  const own = upload ? world.upload.putUrl : world.files.user.downloadUrl;
  const links: Partial<Record<CallerId, string>> = {
    linkHolder: own,
    otherFileLink: withQueryOf(own, upload ? world.otherUpload.putUrl : world.otherDownload.downloadUrl),
    otherMethodLink: upload ? world.files.user.downloadUrl : world.files.user.putUrl,
    expiredLink: upload ? world.expiredUpload.putUrl : world.expiredDownloadUrl,
    tamperedLink: own.replace(/([?&]sig=)(.)/, (_, name, first) => `${name}${first === 'A' ? 'B' : 'A'}`),
    extendedLink: own.replace(/([?&]exp=)(\d+)/, (_, name, exp) => `${name}${Number(exp) + 3600}`),
    revokedLink: upload ? world.upload.putUrl : world.revokedDownloadUrl,
  };
  // Callers of the control plane hold no link: they send their headers to the bare path.
  const url = links[caller] ?? `${world.server.baseUrl}/blob/v1/files/${target.id}`;
  const headers = links[caller] ? {} : credentialsOf(world, caller);
  const { method } = endpoints[endpoint];
  if (method === 'OPTIONS') {
    Object.assign(headers, { origin: allowedOrigin, 'access-control-request-method': 'PUT' });
  }
  const body = method === 'PUT' ? 'bytes put by the matrix' : undefined;
  return { method, url, headers, body };
}

/** `path`'s URL with the query string of `other`: a link moved to another file. */
function withQueryOf(url: string, other: string): string {
  return `${url.split('?')[0]}?${other.split('?')[1] ?? ''}`;
}
