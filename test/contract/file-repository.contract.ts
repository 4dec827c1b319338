import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AclEntry, FileRecord, NewFile, PendingUpload } from '../../src/domain/files/file-record.ts';
import { newId } from '../../src/domain/ids.ts';
import type { Repositories } from '../../src/persistence/repositories/create-repositories.ts';
import { at, newFile, newProjectId, type RepositoryFixture, seconds, T0 } from './repository-fixtures.ts';

/** FileRepository except list (file-list.contract.ts): part of the repository contract. */
export function runFileRepositoryContract(fixture: RepositoryFixture): void {
  describe('FileRepository', () => {
    let projectId: string;
    before(async () => {
      projectId = await newProjectId(fixture.repos);
    });
    const create = (overrides: Partial<NewFile> = {}, now = T0) =>
      fixture.repos.files.create(newFile(projectId, overrides), now);
    const aclRowsOf = (fileId: string) =>
      fixture.database.db.selectFrom('file_acl').selectAll().where('file_id', '=', fileId).execute();
    const user = (identifier: string): AclEntry => ({ scope: 'user', identifier });
    const role = (identifier: string): AclEntry => ({ scope: 'role', identifier });

    it('creates an unverified record at version 0 with the creator as its only ACL entry', async () => {
      const input = newFile(projectId, { permissionScope: '*' });
      const { file, replaced } = await fixture.repos.files.create(input, T0);
      const expected: FileRecord = {
        ...input,
        verified: false,
        etag: null,
        content: null,
        contentCrc32: null,
        blobVersion: null,
        pendingUpload: null,
        acl: [user(input.creatorId)],
        folderAcl: [],
        createdAt: T0,
        updatedAt: T0,
        version: 0,
        customData: null,
        linksGeneration: 0,
        blobFileId: null,
        declared: { sizeBytes: null, contentType: null, checksumSha256: null },
        image: null,
        contentVersion: { id: input.id, createdAt: T0, createdBy: input.creatorId },
        hold: null,
        quarantine: null,
        scan: null,
      };
      assert.deepEqual(file, expected);
      assert.equal(replaced, undefined);
      assert.deepEqual(await fixture.repos.files.findById(input.id), expected);
      assert.equal(await fixture.repos.files.findById(newId()), undefined);
    });

    it('throws FILE_EXISTS for a live record at the same creator and path', async () => {
      const { file } = await create();
      const again = { creatorId: file.creatorId, filePath: file.filePath };
      await assert.rejects(create(again, at(1000)), { code: 'FILE_EXISTS' });
      // The link expires at uploadExpiresAt: at that very second it is not yet abandoned.
      await assert.rejects(create(again, new Date(file.uploadExpiresAt * 1000)), { code: 'FILE_EXISTS' });
      await create({ filePath: file.filePath }); // another creator
      await create({ creatorId: file.creatorId }); // another path
      assert.equal((await fixture.repos.files.findById(file.id))?.version, 0);
    });

    it('replaces an abandoned upload (unverified, link expired) and reports it with its pending bytes', async () => {
      const { file: old } = await create({ uploadExpiresAt: seconds(T0) + 60 });
      await fixture.repos.files.addAclEntry(old.id, user('bob'), at(1));
      await fixture.repos.files.commitUpload(old.id, upload('aaaaaaaaaaaaaaaaaaaaaaaa'));
      const later = at(61_000);
      const input = newFile(projectId, { creatorId: old.creatorId, filePath: old.filePath });
      const { file, replaced } = await fixture.repos.files.create(input, later);
      assert.deepEqual(replaced, { id: old.id, pendingBlobVersion: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
      assert.equal(file.id, input.id);
      assert.deepEqual(file.acl, [user(old.creatorId)]);
      assert.equal(await fixture.repos.files.findById(old.id), undefined);
      assert.deepEqual(await aclRowsOf(old.id), []);
      assert.deepEqual(await fixture.repos.files.findById(input.id), file);
    });

    it('lets exactly one of ten concurrent creates at one path win, fresh or replacing', async () => {
      const race = async (input: Partial<NewFile>, now: Date) => {
        const results = await Promise.allSettled(Array.from({ length: 10 }, () => create(input, now)));
        const won = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        for (const result of results) {
          if (result.status === 'rejected') assert.equal(result.reason.code, 'FILE_EXISTS');
        }
        assert.equal(won.length, 1);
        return won[0]!;
      };
      const first = await race(
        { creatorId: 'racer', filePath: 'race.txt', uploadExpiresAt: seconds(T0) + 60 },
        T0,
      );
      assert.equal(first.replaced, undefined);
      const second = await race({ creatorId: 'racer', filePath: 'race.txt' }, at(61_000));
      assert.deepEqual(second.replaced, { id: first.file.id, pendingBlobVersion: null });
      assert.deepEqual(await fixture.repos.files.findById(second.file.id), second.file);
    });

    it('never replaces a verified record, even after its upload link expired', async () => {
      const { file } = await create({ uploadExpiresAt: seconds(T0) + 60 });
      await fixture.repos.files.markVerified(file.id, verification, at(1000));
      const again = { creatorId: file.creatorId, filePath: file.filePath };
      await assert.rejects(create(again, at(3_600_000)), { code: 'FILE_EXISTS' });
      assert.equal((await fixture.repos.files.findById(file.id))?.verified, true);
    });

    it('keeps the ACL in insertion order, user and role entries alike', async () => {
      const { file } = await create();
      await fixture.repos.files.addAclEntry(file.id, user('bob'), at(1000));
      await fixture.repos.files.addAclEntry(file.id, role('editors'), at(2000));
      const last = await fixture.repos.files.addAclEntry(file.id, user('carol'), at(3000));
      const expectedAcl = [user(file.creatorId), user('bob'), role('editors'), user('carol')];
      assert.deepEqual(last?.acl, expectedAcl);
      assert.equal(last?.version, 3);
      assert.deepEqual(last?.updatedAt, at(3000));
      assert.deepEqual(last?.createdAt, T0);
      assert.deepEqual(await fixture.repos.files.findById(file.id), last);
    });

    it('treats a duplicate share as a no-op: same ACL, same version, same updatedAt', async () => {
      const { file } = await create();
      const shared = await fixture.repos.files.addAclEntry(file.id, role('editors'), at(1000));
      const again = await fixture.repos.files.addAclEntry(file.id, role('editors'), at(2000));
      assert.deepEqual(again, shared);
      const creatorAgain = await fixture.repos.files.addAclEntry(file.id, user(file.creatorId), at(3000));
      assert.deepEqual(creatorAgain, shared);
      assert.equal(await fixture.repos.files.addAclEntry(newId(), user('bob'), at(1000)), undefined);
    });

    it('removes an entry with one version bump; removing an absent entry changes nothing', async () => {
      const { file } = await create();
      await fixture.repos.files.addAclEntry(file.id, user('bob'), at(1000));
      await fixture.repos.files.addAclEntry(file.id, user('carol'), at(2000));
      const removed = await fixture.repos.files.removeAclEntry(file.id, user('bob'), at(3000));
      assert.deepEqual(removed?.acl, [user(file.creatorId), user('carol')]);
      assert.equal(removed?.version, 3);
      assert.deepEqual(removed?.updatedAt, at(3000));
      assert.deepEqual(await fixture.repos.files.removeAclEntry(file.id, user('bob'), at(4000)), removed);
      assert.deepEqual(await fixture.repos.files.removeAclEntry(file.id, role('carol'), at(4000)), removed);
      const readded = await fixture.repos.files.addAclEntry(file.id, user('bob'), at(5000));
      assert.deepEqual(readded?.acl, [user(file.creatorId), user('carol'), user('bob')]);
      assert.equal(await fixture.repos.files.removeAclEntry(newId(), user('bob'), at(1000)), undefined);
    });

    it('loses none of 20 parallel shares and raises version by exactly 20', async () => {
      const { file } = await create();
      const entries = Array.from({ length: 20 }, (_, i) => user(`parallel-${i}`));
      const results = await Promise.all(
        entries.map((entry) => fixture.repos.files.addAclEntry(file.id, entry, at(1000))),
      );
      assert.ok(results.every((result) => result !== undefined));
      const after = await fixture.repos.files.findById(file.id);
      assert.equal(after?.version, 20);
      assert.deepEqual(after?.acl[0], user(file.creatorId));
      assert.deepEqual(sortAcl(after?.acl.slice(1) ?? []), sortAcl(entries));
      const positions = (await aclRowsOf(file.id)).map((row) => row.position).sort((a, b) => a - b);
      assert.deepEqual(
        positions,
        Array.from({ length: 21 }, (_, i) => i),
      );
    });

    it('loses no share when two handles write the same file in turn (20 each, interleaved)', async () => {
      const other = await fixture.openAnother();
      const { file } = await create();
      const share = (repos: Repositories, name: string) => async () => {
        for (let i = 0; i < 20; i++) {
          const updated = await repos.files.addAclEntry(file.id, user(`${name}-${i}`), at(i));
          assert.ok(updated?.acl.some((entry) => entry.identifier === `${name}-${i}`));
        }
      };
      await Promise.all([share(fixture.repos, 'first')(), share(other.repos, 'second')()]);
      const after = await fixture.repos.files.findById(file.id);
      assert.equal(after?.version, 40);
      assert.equal(after?.acl.length, 41);
      assert.deepEqual(await other.repos.files.findById(file.id), after);
    });

    it('marks a file verified with etag, content info and its pinned version, bumping version once', async () => {
      const { file } = await create();
      const verified = await fixture.repos.files.markVerified(file.id, verification, at(5000));
      assert.deepEqual(verified, {
        ...file,
        verified: true,
        etag: verification.etag,
        content: verification.content,
        blobVersion: verification.blobVersion,
        updatedAt: at(5000),
        version: 1,
      });
      assert.deepEqual(await fixture.repos.files.findById(file.id), verified);
      assert.equal(await fixture.repos.files.markVerified(newId(), verification, at(5000)), undefined);
      // Verified once: a second verify changes nothing.
      assert.equal(await fixture.repos.files.markVerified(file.id, verification, at(6000)), undefined);
    });

    it('commits uploads one after another, answering what each replaced; verify pins only the upload it compared', async () => {
      const { file } = await create();
      const [a, b, c] = ['a', 'b', 'c'].map((letter) => upload(letter.repeat(24))) as [
        PendingUpload,
        PendingUpload,
        PendingUpload,
      ];
      assert.deepEqual(await fixture.repos.files.commitUpload(file.id, a), { replaced: null });
      assert.equal(
        (await fixture.repos.files.findById(file.id))?.version,
        0,
        'an upload is not a record change',
      );
      assert.deepEqual((await fixture.repos.files.findById(file.id))?.pendingUpload, a);
      // The next upload replaces `a`, and learns it (its bytes are the caller's to remove).
      assert.deepEqual(await fixture.repos.files.commitUpload(file.id, b), { replaced: a.blobVersion });
      // A verify that compared `a` must not pin it once `b` replaced it.
      const pinA = { ...verification, blobVersion: a.blobVersion, pendingVersion: a.blobVersion };
      assert.equal(await fixture.repos.files.markVerified(file.id, pinA, at(1000)), undefined);
      const pinB = { ...verification, blobVersion: b.blobVersion, pendingVersion: b.blobVersion };
      const verified = await fixture.repos.files.markVerified(file.id, pinB, at(1000));
      assert.equal(verified?.blobVersion, b.blobVersion);
      assert.equal(verified?.pendingUpload, null);
      // The late PUT of the race: refused by the record, whatever it expected.
      assert.equal(await fixture.repos.files.commitUpload(file.id, c), 'verified');
      assert.equal(await fixture.repos.files.commitUpload(newId(), c), 'missing');
      assert.equal((await fixture.repos.files.findById(file.id))?.blobVersion, b.blobVersion);
    });

    it('serializes twenty concurrent uploads: each replaces exactly one other, none is lost track of', async () => {
      const { file } = await create();
      const uploads = Array.from({ length: 20 }, (_, index) =>
        upload(String(index % 10).repeat(23) + (index < 10 ? 'a' : 'b')),
      );
      const outcomes = await Promise.all(
        uploads.map((each) => fixture.repos.files.commitUpload(file.id, each)),
      );
      const replaced = outcomes.map((outcome) => (typeof outcome === 'string' ? outcome : outcome.replaced));
      // A chain: one found nothing before it, every other replaced a distinct upload, and the
      // one left pending is the one nobody replaced.
      assert.equal(replaced.filter((version) => version === null).length, 1, replaced.join());
      const replacedVersions = replaced.filter((version) => version !== null);
      assert.equal(new Set(replacedVersions).size, 19, replaced.join());
      const pending = (await fixture.repos.files.findById(file.id))?.pendingUpload?.blobVersion;
      assert.deepEqual(
        uploads.map((each) => each.blobVersion).filter((version) => !replacedVersions.includes(version)),
        [pending],
      );
    });

    it('finds many records by id as findById finds each, leaving unknown ids out', async () => {
      const { file: shared } = await create();
      await fixture.repos.files.addAclEntry(shared.id, role('editors'), at(1000));
      const ids = [shared.id, (await create()).file.id, (await create()).file.id];
      const found = await fixture.repos.files.findByIds([...ids, newId()]);
      assert.deepEqual([...found.keys()].sort(), [...ids].sort());
      for (const id of ids) assert.deepEqual(found.get(id), await fixture.repos.files.findById(id));
      assert.deepEqual(found.get(shared.id)?.acl.at(-1), role('editors'));
      assert.equal((await fixture.repos.files.findByIds([])).size, 0);
    });

    it('deletes a record together with its ACL', async () => {
      const { file } = await create();
      await fixture.repos.files.addAclEntry(file.id, role('editors'), at(1000));
      assert.equal((await aclRowsOf(file.id)).length, 2);
      assert.equal(await fixture.repos.files.delete(file.id), true);
      assert.equal(await fixture.repos.files.findById(file.id), undefined);
      assert.deepEqual(await aclRowsOf(file.id), []);
      assert.equal(await fixture.repos.files.delete(file.id), false);
      // The path is free again for its creator.
      await create({ creatorId: file.creatorId, filePath: file.filePath });
    });

    it("lists the ids of a user's files in id order, page by page, and of the files shared with a user", async () => {
      const creatorId = newId();
      const reader = newId();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push((await create({ creatorId })).file.id);
      const others = [(await create()).file.id, (await create()).file.id];
      for (const id of [created[0]!, ...others]) await fixture.repos.files.addAclEntry(id, user(reader), T0);
      await fixture.repos.files.addAclEntry(others[0]!, role(reader), T0); // a role of that name is no user entry
      const pages: string[][] = [];
      let afterId: string | undefined;
      for (;;) {
        const page = await fixture.repos.files.listIdsCreatedBy(projectId, creatorId, { afterId, limit: 2 });
        pages.push(page);
        if (page.length < 2) break;
        afterId = page.at(-1);
      }
      assert.deepEqual(pages.flat(), [...created].sort());
      assert.deepEqual(
        pages.map((page) => page.length),
        [2, 2, 1],
      );
      assert.deepEqual(
        await fixture.repos.files.listIdsCreatedBy(await newProjectId(fixture.repos), creatorId, {
          limit: 9,
        }),
        [],
      );
      assert.deepEqual(
        (await fixture.repos.files.listIdsSharedWithUser(projectId, reader, 10)).sort(),
        [created[0]!, ...others].sort(),
      );
      assert.equal((await fixture.repos.files.listIdsSharedWithUser(projectId, reader, 2)).length, 2);
      // The creator's own entry names it too.
      assert.deepEqual(
        (await fixture.repos.files.listIdsSharedWithUser(projectId, creatorId, 10)).sort(),
        [...created].sort(),
      );
      assert.deepEqual(
        await fixture.repos.files.listIdsSharedWithUser(await newProjectId(fixture.repos), reader, 10),
        [],
      );
    });

    it('finds the blob versions records name (served and pending), by id, for a page of ids', async () => {
      const { file: pending } = await create();
      await fixture.repos.files.commitUpload(pending.id, upload('aaaaaaaaaaaaaaaaaaaaaaaa'));
      const { file: verified } = await create();
      await fixture.repos.files.markVerified(verified.id, verification, at(1000));
      const { file: empty } = await create();
      const missing = newId();
      const found = await fixture.repos.files.findBlobReferences([
        pending.id,
        verified.id,
        empty.id,
        missing,
      ]);
      assert.deepEqual(Object.fromEntries(found), {
        [pending.id]: {
          projectId,
          verified: false,
          blobVersion: null,
          uploadBlobVersion: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        },
        [verified.id]: {
          projectId,
          verified: true,
          blobVersion: verification.blobVersion,
          uploadBlobVersion: null,
        },
        [empty.id]: { projectId, verified: false, blobVersion: null, uploadBlobVersion: null },
      });
      assert.equal((await fixture.repos.files.findBlobReferences([])).size, 0);
      await fixture.repos.files.delete(pending.id);
      assert.equal((await fixture.repos.files.findBlobReferences([pending.id])).size, 0);
    });
  });
}

function upload(blobVersion: string): PendingUpload {
  return {
    blobVersion,
    etag: `"${blobVersion.slice(0, 8)}"`,
    sizeBytes: 14,
    contentType: 'text/plain',
    lastModified: new Date('2026-11-22T01:15:31.000Z'),
    checksumSha256: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
    // The largest CRC-32: past PostgreSQL's integer (migration 0036 makes the columns BIGINT).
    crc32: 0xffff_ffff,
  };
}

const verification = {
  blobVersion: '0123456789abcdef01234567',
  pendingVersion: null,
  etag: '"9a0364b9e99bb480dd25e1f0284c8555"',
  content: {
    sizeBytes: 5_000_000_000,
    contentType: 'image/png',
    lastModified: new Date('2026-11-22T01:15:31.000Z'),
    checksumSha256: null,
  },
};

function sortAcl(acl: AclEntry[]): AclEntry[] {
  return [...acl].sort((a, b) => `${a.scope}:${a.identifier}`.localeCompare(`${b.scope}:${b.identifier}`));
}
