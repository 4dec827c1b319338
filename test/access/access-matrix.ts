import type { ErrorCode } from '../../src/errors/error-codes.ts';

/**
 * The one authorization matrix: every endpoint of both planes × every kind of caller → what
 * Coffer answers. It is data: test/access/access-matrix-api.test.ts plays every cell against
 * a running server, src/domain/access/decide-file-access.test.ts checks canAccessFile against
 * its ACL part, and docs/security.md's access table is generated from it
 * (`npm run docs:security`).
 */

/** `ok`: the endpoint's success status; otherwise the refusal's code (its status is fixed in error-codes.ts). */
export type Outcome = 'ok' | ErrorCode;
export type Scope = 'user' | '*';
/** A file endpoint's outcome may depend on the file's permissionScope. */
export type ScopedOutcome = Outcome | Record<Scope, Outcome>;

// --- Endpoints ------------------------------------------------------------------------------

/**
 * Endpoints fall into groups that the barriers treat alike; a row names a group once and the
 * tests expand it to every endpoint in it (each endpoint is still played, cell by cell).
 */
export type Group =
  | 'login'
  | 'signup'
  /** Refresh: app credentials and a refresh token in the body, no access token (one sent is ignored). */
  | 'refresh'
  /** Calls that need a user but no file: profile, upload request, listing. */
  | 'account'
  /** Calls for holders of the project's admin role only (finding a user by email). */
  | 'admin'
  /**
   * Administering the project (the audit log, webhooks): its service keys and admins only; the
   * app secret, which ships inside apps, administers nothing (issue 35).
   */
  | 'projectAdmin'
  /** Reading one file (ACL action `read`): played on a scope `user` and a scope `*` file. */
  | 'read'
  /** Changing one file (ACL action `manage`): played on both scopes too. */
  | 'manage'
  /** The control plane's CORS preflight. */
  | 'preflight'
  | 'probes'
  /** The data plane's PUT, GET and HEAD: the signed link is the only credential. */
  | 'gateway'
  /** The data plane's CORS preflight. */
  | 'gatewayPreflight';

export type Endpoint = {
  method: string;
  /** As the docs show it. */
  path: string;
  group: Group;
  /** The status of `ok`. */
  okStatus: number;
  /**
   * Its cells run one at a time, none beside another: a password change revokes the refresh
   * tokens of the caller's other sessions, which a refresh cell may hold.
   */
  exclusive?: boolean;
};

export const endpoints = {
  login: { method: 'POST', path: '/api/v1/auth/login', group: 'login', okStatus: 200 },
  signup: { method: 'POST', path: '/api/v1/auth/signup', group: 'signup', okStatus: 200 },
  // The matrix's projects allow anonymous signup (matrix-world.ts).
  signupAnonymous: { method: 'POST', path: '/api/v1/auth/signup/anonymous', group: 'signup', okStatus: 200 },
  refreshSession: {
    method: 'POST',
    path: '/api/v1/auth/refresh',
    group: 'refresh',
    okStatus: 200,
    exclusive: true,
  },
  // With the bearer token only (the session it was issued with); the refresh-token form is
  // played in test/api/sessions.test.ts.
  logout: { method: 'POST', path: '/api/v1/auth/logout', group: 'account', okStatus: 204 },
  changePassword: {
    method: 'POST',
    path: '/api/v1/auth/password',
    group: 'account',
    okStatus: 204,
    exclusive: true,
  },
  getProfile: { method: 'GET', path: '/api/v1/user', group: 'account', okStatus: 200 },
  // Asks only (a mail to a new address nobody has): the world's addresses stay as built. Its
  // confirm and revert take a mail's token, played in test/account-controls/email-change.test.ts;
  // DELETE /api/v1/user would end the world's accounts and is played in self-deletion.test.ts.
  requestEmailChange: { method: 'POST', path: '/api/v1/user/email', group: 'account', okStatus: 202 },
  // A user's own sessions (issue 41): ending one aims at a new session of the caller's account.
  listSessions: { method: 'GET', path: '/api/v1/user/sessions', group: 'account', okStatus: 200 },
  endSession: {
    method: 'DELETE',
    path: '/api/v1/user/sessions/:sessionId',
    group: 'account',
    okStatus: 204,
  },
  // Ends the caller's other sessions, as a password change does: a refresh cell may hold one.
  endOtherSessions: {
    method: 'DELETE',
    path: '/api/v1/user/sessions',
    group: 'account',
    okStatus: 204,
    exclusive: true,
  },
  // A user's own passkeys (issue 41): a user's call, as the profile is.
  listPasskeys: { method: 'GET', path: '/api/v1/user/passkeys', group: 'account', okStatus: 200 },
  // With the password: a pending enrolment, which nothing else sees (issue 41).
  startTotp: { method: 'POST', path: '/api/v1/user/mfa/totp', group: 'account', okStatus: 200 },
  // Looks up the creator's email.
  findUser: { method: 'GET', path: '/api/v1/users?email=:email', group: 'admin', okStatus: 200 },
  requestUpload: { method: 'POST', path: '/api/v1/file', group: 'account', okStatus: 200 },
  listFiles: { method: 'GET', path: '/api/v1/file', group: 'account', okStatus: 200 },
  // The caller's own root: a user's answers even with no file in it.
  browseFolder: { method: 'GET', path: '/api/v1/folders', group: 'account', okStatus: 200 },
  getFile: { method: 'GET', path: '/api/v1/file/:fileId', group: 'read', okStatus: 200 },
  verifyUpload: { method: 'POST', path: '/api/v1/file/:fileId/verify', group: 'manage', okStatus: 200 },
  shareWithUser: {
    method: 'POST',
    path: '/api/v1/file/:fileId/acl/user/:userId',
    group: 'manage',
    okStatus: 200,
  },
  // Names userEntry by email: shared already, so it changes nothing.
  shareWithEmail: {
    method: 'POST',
    path: '/api/v1/file/:fileId/acl/email/:email',
    group: 'manage',
    okStatus: 200,
  },
  shareWithRole: {
    method: 'POST',
    path: '/api/v1/file/:fileId/acl/role/:role',
    group: 'manage',
    okStatus: 200,
  },
  unshareUser: {
    method: 'DELETE',
    path: '/api/v1/file/:fileId/acl/user/:userId',
    group: 'manage',
    okStatus: 204,
  },
  unshareRole: {
    method: 'DELETE',
    path: '/api/v1/file/:fileId/acl/role/:role',
    group: 'manage',
    okStatus: 204,
  },
  deleteFile: { method: 'DELETE', path: '/api/v1/file/:fileId', group: 'manage', okStatus: 204 },
  updateFile: { method: 'PATCH', path: '/api/v1/file/:fileId', group: 'manage', okStatus: 200 },
  revokeLinks: {
    method: 'POST',
    path: '/api/v1/file/:fileId/links/revoke',
    group: 'manage',
    okStatus: 204,
  },
  // A copy is a read of the source (into a file of the caller's own).
  copyFile: { method: 'POST', path: '/api/v1/file/:fileId/copy', group: 'read', okStatus: 200 },
  moveFile: { method: 'POST', path: '/api/v1/file/:fileId/move', group: 'manage', okStatus: 200 },
  // A file's versions (issue 38): readers list them; the creator and admins add new content.
  listVersions: { method: 'GET', path: '/api/v1/file/:fileId/versions', group: 'read', okStatus: 200 },
  requestVersion: { method: 'POST', path: '/api/v1/file/:fileId/versions', group: 'manage', okStatus: 200 },
  // Legal holds (issue 38): the project's admins and service keys, the file's creator not included.
  holdFile: { method: 'POST', path: '/api/v1/file/:fileId/hold', group: 'admin', okStatus: 200 },
  releaseFile: { method: 'DELETE', path: '/api/v1/file/:fileId/hold', group: 'admin', okStatus: 204 },
  // Quarantine (issue 42): its release is the project's admins' and service keys', as a hold's.
  releaseQuarantine: {
    method: 'POST',
    path: '/api/v1/file/:fileId/quarantine/release',
    group: 'admin',
    okStatus: 200,
  },
  // Per-id outcomes: the barriers answer for the request, the ACL for each id (API tests).
  deleteFiles: { method: 'POST', path: '/api/v1/file/delete', group: 'account', okStatus: 200 },
  // The creator's folder, named by its owner: the creator, admins and service keys (issue 36).
  moveFolder: { method: 'POST', path: '/api/v1/folders/move', group: 'account', okStatus: 200 },
  deleteFolder: { method: 'POST', path: '/api/v1/folders/delete', group: 'account', okStatus: 200 },
  readAudit: { method: 'GET', path: '/api/v1/audit', group: 'projectAdmin', okStatus: 200 },
  listWebhooks: { method: 'GET', path: '/api/v1/webhooks', group: 'projectAdmin', okStatus: 200 },
  controlPreflight: { method: 'OPTIONS', path: '/api/v1/file', group: 'preflight', okStatus: 204 },
  healthz: { method: 'GET', path: '/healthz', group: 'probes', okStatus: 200 },
  readyz: { method: 'GET', path: '/readyz', group: 'probes', okStatus: 200 },
  putBlob: { method: 'PUT', path: '/blob/v1/files/:fileId', group: 'gateway', okStatus: 200 },
  getBlob: { method: 'GET', path: '/blob/v1/files/:fileId', group: 'gateway', okStatus: 200 },
  headBlob: { method: 'HEAD', path: '/blob/v1/files/:fileId', group: 'gateway', okStatus: 200 },
  blobPreflight: {
    method: 'OPTIONS',
    path: '/blob/v1/files/:fileId',
    group: 'gatewayPreflight',
    okStatus: 204,
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointId = keyof typeof endpoints;

// --- Callers --------------------------------------------------------------------------------

/** Who calls, as the docs describe them. The API test builds each one's requests. */
export const callers = {
  // Barrier: app credentials. Each holds the creator's valid token otherwise.
  noAppId: 'no `sb-app-id`',
  appIdOnly: '`sb-app-id` alone: no secret, no `Origin`',
  unknownAppId: 'an app id no project has',
  wrongSecret: 'the right app id, a wrong `sb-app-secret`',
  disallowedOrigin: 'app id from an `Origin` the project does not allow, no secret',
  allowedOrigin: 'app id from an allowed `Origin`, no secret (a browser): the creator otherwise',
  secretFromOtherOrigin:
    'app id and the right secret from an `Origin` the project does not allow (a server call)',
  // Service keys (issue 35): a server's admin credential, sent as the bearer token with the app id.
  serviceKey: 'app id and a service key (`Authorization: Bearer csk_…`), no secret: a backend',
  serviceKeyFromOrigin: "a service key from the project's allowed `Origin` (a key leaked into a browser)",
  revokedServiceKey: 'app id and a revoked service key',
  otherProjectServiceKey: "app id and another project's service key",
  // Barrier: user token. Each sends the project's valid app credentials.
  noToken: 'no `Authorization`',
  forgedToken: 'a token signed with another key',
  expiredToken: 'a token past its `exp`',
  algNoneToken: 'a token with `alg: none` and no signature',
  otherAlgorithmToken: 'a token signed HS512 with the right key',
  wrongIssuer: 'a token with another `iss`, signed with the right key',
  wrongAudience: 'a token whose `aud` is another project, signed with the right key',
  otherProjectToken: "a real token of another project's user, with this project's app credentials",
  // ACL: valid app credentials and token.
  creator: 'the user who requested the upload',
  userEntry: 'a user named in a `user` ACL entry',
  roleEntry: 'a user whose role is named in a `role` ACL entry',
  // Folder shares (issue 36): the world shares the files' folder, never the files themselves.
  folderUserShare: 'a user named in a `user` share of a folder holding the file',
  folderRoleShare: 'a user whose role is named in a `role` share of a folder holding the file',
  admin: "a holder of the project's admin role",
  stranger: 'a user of the project the file is not shared with',
  disabledUser: 'a user named in the ACL whose account was then disabled',
  otherProjectUser: "an admin of another project, with its own project's credentials, named in the ACL by id",
  // Data plane: no app credentials, no token; only a link.
  linkHolder: 'the link for this file and this method',
  otherFileLink: "another file's link (query) on this file's path",
  otherMethodLink: "this file's link for the other method (download link to PUT, upload link to GET)",
  expiredLink: 'a link past its `exp`',
  tamperedLink: 'a link with one signature character changed',
  extendedLink: 'a link with a later `exp` than it was signed with',
  revokedLink: "a link issued before its file's links were revoked (upload links are never revoked)",
} as const;

export type CallerId = keyof typeof callers;
export const linkCallers = [
  'linkHolder',
  'otherFileLink',
  'otherMethodLink',
  'expiredLink',
  'tamperedLink',
  'extendedLink',
  'revokedLink',
] as const satisfies CallerId[];

// --- The table ------------------------------------------------------------------------------

/**
 * A row sets `api` (every /api/v1 endpoint but the preflight) and may refine it by group
 * (login, signup, refresh, account, admin, projectAdmin, read, manage) or by single endpoint; the more specific key wins.
 * Probes and the data plane's preflight answer everybody; the rest is explicit per row.
 */
export type Row = { api: Outcome } & Partial<Record<Group | EndpointId, ScopedOutcome>>;

const everybody = { probes: 'ok', gatewayPreflight: 'ok' } as const;
/** What a control-plane caller meets on the data plane and at the preflight: it holds no link. */
const noLink = { gateway: 'INVALID_SIGNATURE', preflight: 'ORIGIN_NOT_ALLOWED', ...everybody } as const;
/** What a link meets on the control plane: nothing, it is no app credential. */
/** The endpoints that need no access token: each caller sends its account's own credentials. */
const noAccessToken = { login: 'ok', signup: 'ok', refresh: 'ok' } as const;
/** Users without the project's admin role, at its admin calls. */
const notAdmin = { admin: 'ACCESS_DENIED', projectAdmin: 'ACCESS_DENIED' } as const;
/** Users who may not change the creator's folders: another owner's folder is none they can see. */
const notFolderOwner = { moveFolder: 'FOLDER_NOT_FOUND', deleteFolder: 'FOLDER_NOT_FOUND' } as const;
const onlyALink = { api: 'APP_CREDENTIALS_REQUIRED', preflight: 'ORIGIN_NOT_ALLOWED', ...everybody } as const;

export const matrix: Record<CallerId, Row> = {
  noAppId: { api: 'APP_CREDENTIALS_REQUIRED', ...noLink },
  appIdOnly: { api: 'APP_CREDENTIALS_REQUIRED', ...noLink },
  unknownAppId: { api: 'INVALID_APP_CREDENTIALS', ...noLink },
  wrongSecret: { api: 'INVALID_APP_CREDENTIALS', ...noLink },
  disallowedOrigin: { api: 'ORIGIN_NOT_ALLOWED', ...noLink },
  allowedOrigin: { api: 'ok', ...notAdmin, ...noLink, preflight: 'ok' },
  // The secret makes it a server call: its Origin is not checked (a browser never holds the secret).
  secretFromOtherOrigin: { api: 'ok', ...notAdmin, ...noLink },

  // A project admin that is no user: no profile, password or session, and no files of its own
  // (an upload request or a copy would make it an owner). Login, signup and refresh are for
  // the accounts their bodies name.
  serviceKey: {
    api: 'ok',
    getProfile: 'ACCESS_DENIED',
    listSessions: 'ACCESS_DENIED',
    endSession: 'ACCESS_DENIED',
    endOtherSessions: 'ACCESS_DENIED',
    listPasskeys: 'ACCESS_DENIED',
    changePassword: 'ACCESS_DENIED',
    requestEmailChange: 'ACCESS_DENIED',
    startTotp: 'ACCESS_DENIED',
    logout: 'ACCESS_DENIED',
    requestUpload: 'ACCESS_DENIED',
    copyFile: 'ACCESS_DENIED',
    // It has no folders of its own: it names the owner (test/folders covers that form).
    browseFolder: 'VALIDATION_FAILED',
    ...noLink,
  },
  // Refused before anything else, even from an allowed origin: the browser may preflight.
  serviceKeyFromOrigin: { api: 'ORIGIN_NOT_ALLOWED', ...noLink, preflight: 'ok' },
  // A key stands in for the app secret, so an unknown one fails barrier 2 wherever it is sent.
  revokedServiceKey: { api: 'INVALID_TOKEN', ...noLink },
  otherProjectServiceKey: { api: 'INVALID_TOKEN', ...noLink },

  // Login, signup and refresh take no access token: one sent along is ignored (the original
  // SDKs send stale ones; a client refreshes because its token expired).
  noToken: { api: 'AUTH_REQUIRED', ...noAccessToken, ...noLink },
  forgedToken: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },
  expiredToken: { api: 'TOKEN_EXPIRED', ...noAccessToken, ...noLink },
  algNoneToken: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },
  otherAlgorithmToken: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },
  wrongIssuer: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },
  wrongAudience: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },
  otherProjectToken: { api: 'INVALID_TOKEN', ...noAccessToken, ...noLink },

  creator: { api: 'ok', ...notAdmin, ...noLink },
  userEntry: { api: 'ok', manage: 'ACCESS_DENIED', ...notAdmin, ...notFolderOwner, ...noLink },
  roleEntry: { api: 'ok', manage: 'ACCESS_DENIED', ...notAdmin, ...notFolderOwner, ...noLink },
  // A folder share lets its grantee do what a file's own `user` or `role` entry does: read, not
  // manage (canAccessFile reads `folderAcl` beside `acl`); it makes no one the folder's owner.
  folderUserShare: { api: 'ok', manage: 'ACCESS_DENIED', ...notAdmin, ...notFolderOwner, ...noLink },
  folderRoleShare: { api: 'ok', manage: 'ACCESS_DENIED', ...notAdmin, ...notFolderOwner, ...noLink },
  admin: { api: 'ok', ...noLink },
  // Scope `*` lets every user of the project who holds the id read; only the ACL lets anyone manage.
  stranger: {
    api: 'ok',
    read: { user: 'ACCESS_DENIED', '*': 'ok' },
    manage: 'ACCESS_DENIED',
    ...notAdmin,
    ...notFolderOwner,
    ...noLink,
  },
  // Refused at once, before its token expires and whatever the ACL says (a refresh too);
  // signing up again is new.
  disabledUser: { api: 'ACCOUNT_DISABLED', signup: 'ok', ...noLink },
  // Its own project works; nothing crosses projects, not even for an admin named in the ACL
  // (an admin there looking up this project's user finds nobody).
  otherProjectUser: {
    api: 'ok',
    read: 'ACCESS_DENIED',
    manage: 'ACCESS_DENIED',
    admin: 'USER_NOT_FOUND',
    // An admin there, but the file is of another project: denied like any file of it.
    holdFile: 'ACCESS_DENIED',
    releaseFile: 'ACCESS_DENIED',
    releaseQuarantine: 'ACCESS_DENIED',
    // Its own project's log and webhooks (the audit cell checks that the page is that project's).
    projectAdmin: 'ok',
    // An admin there: the creator has no folder in its project.
    ...notFolderOwner,
    ...noLink,
  },

  linkHolder: { ...onlyALink, gateway: 'ok' },
  otherFileLink: { ...onlyALink, gateway: 'INVALID_SIGNATURE' },
  otherMethodLink: { ...onlyALink, gateway: 'INVALID_SIGNATURE' },
  expiredLink: { ...onlyALink, gateway: 'LINK_EXPIRED' },
  tamperedLink: { ...onlyALink, gateway: 'INVALID_SIGNATURE' },
  extendedLink: { ...onlyALink, gateway: 'INVALID_SIGNATURE' },
  revokedLink: { ...onlyALink, gateway: 'LINK_REVOKED', putBlob: 'ok' },
};

const apiGroups: readonly Group[] = [
  'login',
  'signup',
  'refresh',
  'account',
  'admin',
  'projectAdmin',
  'read',
  'manage',
];

/** A cell: what `caller` gets from `endpoint` on a file of `scope` (scope matters for read and manage only). */
export function expectedOutcome(caller: CallerId, endpoint: EndpointId, scope: Scope = 'user'): Outcome {
  const row = matrix[caller];
  const { group } = endpoints[endpoint];
  const cell = row[endpoint] ?? row[group] ?? (apiGroups.includes(group) ? row.api : undefined);
  if (cell === undefined) throw new Error(`the access matrix has no cell for ${caller} × ${endpoint}`);
  return typeof cell === 'string' ? cell : cell[scope];
}

export function isScoped(endpoint: EndpointId): boolean {
  const { group } = endpoints[endpoint];
  return group === 'read' || group === 'manage';
}

// --- The ACL part, for the unit test of canAccessFile ---------------------------------------

/** The role the matrix's files are shared with, and the role the `roleEntry` caller holds. */
export const sharedRole = 'editors';
/** The role the matrix's folders are shared with (no file's own ACL names it): `folderRoleShare`'s. */
export const folderSharedRole = 'viewers';
/** The folders the world shares with `folderUserShare` and `folderSharedRole`: its files' and decoys'. */
export const sharedFolders = ['matrix/', 'decoy/'] as const;

/** Callers who pass both barriers and meet the ACL (a disabled account never gets that far). */
export const aclCallers = [
  'creator',
  'userEntry',
  'roleEntry',
  'folderUserShare',
  'folderRoleShare',
  'admin',
  'stranger',
  'otherProjectUser',
] as const satisfies CallerId[];
/** The ACL callers a folder share reaches the file for, not the file's own ACL. */
export const folderShareCallers = ['folderUserShare', 'folderRoleShare'] as const satisfies Caller[];
export type Caller = (typeof aclCallers)[number];
export type Action = 'read' | 'manage';
export type AccessRow = { caller: Caller; scope: Scope; action: Action; expect: 'allow' | 'ACCESS_DENIED' };

/** The matrix's ACL cells as (caller, scope, action) rows: the `read` and `manage` groups. */
export const accessMatrix: AccessRow[] = aclCallers.flatMap((caller) =>
  (['user', '*'] as const).flatMap((scope) =>
    (['read', 'manage'] as const).map((action) => {
      const outcomes = new Set(
        (Object.keys(endpoints) as EndpointId[])
          .filter((endpoint) => endpoints[endpoint].group === action)
          .map((endpoint) => expectedOutcome(caller, endpoint, scope)),
      );
      const [outcome] = outcomes;
      // canAccessFile knows two actions: every endpoint of a group must agree.
      if (outcomes.size !== 1 || (outcome !== 'ok' && outcome !== 'ACCESS_DENIED'))
        throw new Error(
          `${caller} ${action} (scope ${scope}): one of allow or ACCESS_DENIED, not ${[...outcomes]}`,
        );
      return { caller, scope, action, expect: outcome === 'ok' ? 'allow' : outcome };
    }),
  ),
);
