/**
 * The one declarative access matrix (DESIGN §4): who may read and who may manage (verify,
 * share) a file, for each permissionScope. It drives the unit test of canAccessFile and the
 * API test that plays every row against a running server.
 */
export type Caller = 'creator' | 'userEntry' | 'roleEntry' | 'admin' | 'stranger' | 'otherProject';
export type Scope = 'user' | '*';
export type Action = 'read' | 'manage';
/** What the API answers: 200, or the status + code of the refusal. */
export type Outcome = 'allow' | 'ACCESS_DENIED';

export type AccessRow = { caller: Caller; scope: Scope; action: Action; expect: Outcome };

const table: Record<Caller, Record<Scope, Record<Action, Outcome>>> = {
  creator: { user: { read: 'allow', manage: 'allow' }, '*': { read: 'allow', manage: 'allow' } },
  userEntry: {
    user: { read: 'allow', manage: 'ACCESS_DENIED' },
    '*': { read: 'allow', manage: 'ACCESS_DENIED' },
  },
  roleEntry: {
    user: { read: 'allow', manage: 'ACCESS_DENIED' },
    '*': { read: 'allow', manage: 'ACCESS_DENIED' },
  },
  admin: { user: { read: 'allow', manage: 'allow' }, '*': { read: 'allow', manage: 'allow' } },
  stranger: {
    user: { read: 'ACCESS_DENIED', manage: 'ACCESS_DENIED' },
    '*': { read: 'allow', manage: 'ACCESS_DENIED' },
  },
  // Another project's user: its token only works with its own project's app credentials,
  // and with them the file is simply not theirs.
  otherProject: {
    user: { read: 'ACCESS_DENIED', manage: 'ACCESS_DENIED' },
    '*': { read: 'ACCESS_DENIED', manage: 'ACCESS_DENIED' },
  },
};

export const accessMatrix: AccessRow[] = Object.entries(table).flatMap(([caller, scopes]) =>
  Object.entries(scopes).flatMap(([scope, actions]) =>
    Object.entries(actions).map(([action, expect]) => ({ caller, scope, action, expect }) as AccessRow),
  ),
);

/** The role the matrix's file is shared with, and the role the `roleEntry` caller holds. */
export const sharedRole = 'editors';
