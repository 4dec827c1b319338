import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accessMatrix,
  type Caller,
  folderSharedRole,
  sharedFolders,
  sharedRole,
} from '../../../test/access/access-matrix.ts';
import { canAccessFile, type Principal } from './decide-file-access.ts';

const file = (permissionScope: 'user' | '*') => ({
  projectId: 'p1',
  creatorId: 'creator',
  permissionScope,
  acl: [
    { scope: 'user' as const, identifier: 'creator' },
    { scope: 'user' as const, identifier: 'userEntry' },
    { scope: 'role' as const, identifier: sharedRole },
  ],
  // The shares of the file's folder (the world's `matrix/`), as the record carries them.
  folderAcl: [
    { scope: 'user' as const, identifier: 'folderUserShare', path: sharedFolders[0] },
    { scope: 'role' as const, identifier: folderSharedRole, path: sharedFolders[0] },
  ],
});

const principals: Record<Caller, Principal> = {
  creator: { userId: 'creator', projectId: 'p1', role: 'user', isAdmin: false },
  userEntry: { userId: 'userEntry', projectId: 'p1', role: 'user', isAdmin: false },
  roleEntry: { userId: 'roleEntry', projectId: 'p1', role: sharedRole, isAdmin: false },
  folderUserShare: { userId: 'folderUserShare', projectId: 'p1', role: 'user', isAdmin: false },
  folderRoleShare: { userId: 'folderRoleShare', projectId: 'p1', role: folderSharedRole, isAdmin: false },
  admin: { userId: 'admin', projectId: 'p1', role: 'admin', isAdmin: true },
  stranger: { userId: 'stranger', projectId: 'p1', role: 'user', isAdmin: false },
  // Even named in the ACL by id, another project's user gets nothing.
  otherProjectUser: { userId: 'userEntry', projectId: 'p2', role: sharedRole, isAdmin: true },
};

describe('canAccessFile, driven by the access matrix', () => {
  for (const row of accessMatrix) {
    it(`${row.caller} ${row.action} (scope ${row.scope}) → ${row.expect}`, () => {
      const allowed = canAccessFile({
        principal: principals[row.caller],
        file: file(row.scope),
        action: row.action,
      });
      assert.equal(allowed, row.expect === 'allow');
    });
  }
});

describe('canAccessFile with folder shares (issue 36)', () => {
  const inSharedFolder = {
    ...file('user'),
    acl: [{ scope: 'user' as const, identifier: 'creator' }],
    folderAcl: [
      { scope: 'user' as const, identifier: 'stranger', path: 'trip/' },
      { scope: 'role' as const, identifier: sharedRole, path: 'trip/day1/' },
    ],
  };

  it('lets a user or role a folder share names read, and nothing more', () => {
    assert.equal(
      canAccessFile({ principal: principals.stranger, file: inSharedFolder, action: 'read' }),
      true,
    );
    assert.equal(
      canAccessFile({ principal: principals.roleEntry, file: inSharedFolder, action: 'read' }),
      true,
    );
    assert.equal(
      canAccessFile({ principal: principals.stranger, file: inSharedFolder, action: 'manage' }),
      false,
    );
    assert.equal(
      canAccessFile({ principal: principals.userEntry, file: inSharedFolder, action: 'read' }),
      false,
    );
    assert.equal(
      canAccessFile({ principal: principals.otherProjectUser, file: inSharedFolder, action: 'read' }),
      false,
    );
  });
});
