import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FileRecord } from '../../domain/files/file-record.ts';
import { toFileView } from './to-wire.ts';

function record(): FileRecord {
  return {
    id: 'f1',
    projectId: 'p1',
    creatorId: 'u1',
    filePath: 'a/b.txt',
    permissionScope: 'user',
    verified: true,
    etag: '"abc"',
    content: { sizeBytes: 3, contentType: 'text/plain', lastModified: new Date(0) },
    contentCrc32: null,
    blobVersion: 'v1',
    pendingUpload: null,
    uploadExpiresAt: 0,
    acl: [{ scope: 'user', identifier: 'u1' }],
    folderAcl: [],
    createdAt: new Date(1000),
    updatedAt: new Date(2000),
    version: 1,
    customData: null,
    linksGeneration: 0,
    blobFileId: null,
    declared: { sizeBytes: null, contentType: null, checksumSha256: null },
    image: null,
    contentVersion: { id: 'f1', createdAt: new Date(1000), createdBy: 'u1' },
    hold: null,
    quarantine: null,
    scan: null,
  };
}

it('makes the view of a shared (frozen) record once, frozen; a fresh record gets a fresh view', () => {
  const shared = Object.freeze(record());
  const view = toFileView(shared);
  assert.equal(toFileView(shared), view);
  assert.ok(Object.isFrozen(view) && Object.isFrozen(view.meta));
  assert.equal(view.__updatedAt, '1970-01-01T00:00:02.000Z');
  assert.equal(view.meta.LastModified, 'Thu, 01 Jan 1970 00:00:00 GMT');

  const fresh = record();
  const freshView = toFileView(fresh);
  assert.notEqual(toFileView(fresh), freshView);
  assert.deepEqual(freshView, view);
  assert.ok(!Object.isFrozen(freshView));
});
