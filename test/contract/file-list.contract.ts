import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { FileRecord, NewFile } from '../../src/domain/files/file-record.ts';
import type { FileListQuery } from '../../src/domain/files/file-repository.ts';
import { listFiles, pagesCountedAhead } from '../../src/persistence/repositories/files/list-files.ts';
import { writeAllRows } from '../../src/persistence/table-copy.ts';
import { at, newFile, newProjectId, type RepositoryFixture } from './repository-fixtures.ts';

/** FileRepository.list: who sees what, in which order, page by page (part of the repository contract). */
export function runFileListContract(fixture: RepositoryFixture): void {
  describe('FileRepository.list', () => {
    const ann = 'ann'; // creator of most files
    const bob = 'bob'; // named in a user entry
    const cat = 'cat'; // holds the role named in a role entry
    const eve = 'eve'; // stranger
    let projectId: string;
    let files: Record<'shared' | 'forEditors' | 'bobs' | 'open', FileRecord>;

    const reader = (
      readerId: string,
      readerRole = 'user',
      extra: Partial<FileListQuery> = {},
    ): FileListQuery => ({
      projectId,
      readerId,
      readerRole,
      isAdmin: false,
      limit: 100,
      offset: 0,
      ...extra,
    });
    const idsOf = async (query: FileListQuery) =>
      (await fixture.repos.files.list(query)).files.map((file) => file.id);
    const create = async (input: Partial<NewFile>, offsetMs: number) =>
      (await fixture.repos.files.create(newFile(projectId, input), at(offsetMs))).file;

    before(async () => {
      projectId = await newProjectId(fixture.repos);
      const otherProject = await newProjectId(fixture.repos);
      const shared = await create({ creatorId: ann }, 1000);
      await fixture.repos.files.addAclEntry(shared.id, { scope: 'user', identifier: bob }, at(1500));
      const forEditors = await create({ creatorId: ann }, 2000);
      await fixture.repos.files.addAclEntry(
        forEditors.id,
        { scope: 'role', identifier: 'editors' },
        at(2500),
      );
      const bobs = await create({ creatorId: bob }, 3000);
      // "*" lets anyone with the id read it, but it is not listed for them.
      const open = await create({ creatorId: ann, permissionScope: '*' }, 4000);
      const elsewhere = (
        await fixture.repos.files.create(newFile(otherProject, { creatorId: ann }), at(5000))
      ).file;
      await fixture.repos.files.addAclEntry(elsewhere.id, { scope: 'user', identifier: bob }, at(5000));
      // Role names repeat across projects: another project's role entry must not show here.
      await fixture.repos.files.addAclEntry(elsewhere.id, { scope: 'role', identifier: 'editors' }, at(5000));
      files = { shared, forEditors, bobs, open };
    });

    it('shows the creator, user entries and role entries their files, newest first', async () => {
      assert.deepEqual(await idsOf(reader(ann)), [files.open.id, files.forEditors.id, files.shared.id]);
      assert.deepEqual(await idsOf(reader(bob)), [files.bobs.id, files.shared.id]);
      assert.deepEqual(await idsOf(reader(cat, 'editors')), [files.forEditors.id]);
      assert.deepEqual(await idsOf(reader(eve)), []);
      assert.deepEqual(await idsOf(reader(eve, 'editors')), [files.forEditors.id]);
    });

    it('shows admins every file of their project and nothing of other projects', async () => {
      const all = [files.open.id, files.bobs.id, files.forEditors.id, files.shared.id];
      assert.deepEqual(await idsOf(reader(eve, 'admin', { isAdmin: true })), all);
      const stranger = {
        ...reader(eve, 'admin', { isAdmin: true }),
        projectId: await newProjectId(fixture.repos),
      };
      assert.deepEqual(await fixture.repos.files.list(stranger), { files: [], total: 0 });
    });

    it('returns whole records, ACLs in insertion order', async () => {
      const listed = await fixture.repos.files.list(reader(ann));
      assert.equal(listed.total, 3);
      for (const file of listed.files) assert.deepEqual(file, await fixture.repos.files.findById(file.id));
    });

    it('pages with limit and offset and always reports the total', async () => {
      const admin = (limit: number, offset: number) => reader(eve, 'admin', { isAdmin: true, limit, offset });
      const all = [files.open.id, files.bobs.id, files.forEditors.id, files.shared.id];
      for (const [limit, offset] of [
        [2, 0],
        [2, 2],
        [3, 3],
        [2, 4],
        [10, 0],
        [1, 3],
      ] as const) {
        const page = await fixture.repos.files.list(admin(limit, offset));
        assert.deepEqual(
          page.files.map((file) => file.id),
          all.slice(offset, offset + limit),
          `${limit}/${offset}`,
        );
        assert.equal(page.total, 4, `${limit}/${offset}`);
      }
    });

    it(`counts the total exactly up to ${pagesCountedAhead} pages ahead, each file once, and a lower bound past that`, async () => {
      const countProject = await newProjectId(fixture.repos);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const file = (await fixture.repos.files.create(newFile(countProject, { creatorId: ann }), at(i)))
          .file;
        // In all three of ann's sets: own, a user entry (the creator's) and a role entry.
        await fixture.repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'team' }, at(i));
        ids.unshift(file.id);
      }
      const list = (limit: number, offset: number) =>
        fixture.repos.files.list({ ...reader(ann, 'team', { limit, offset }), projectId: countProject });
      for (const [limit, offset, total] of [
        [10, 0, 30],
        [2, 28, 30],
        [1, 25, 30],
        [5, 40, 30],
        [1, 0, 1 + pagesCountedAhead + 1],
        [2, 4, 4 + 2 * (1 + pagesCountedAhead) + 1],
      ] as const) {
        const page = await list(limit, offset);
        assert.deepEqual(
          page.files.map((file) => file.id),
          ids.slice(offset, offset + limit),
          `${limit}/${offset}`,
        );
        assert.equal(page.total, total, `${limit}/${offset}`);
      }
    });

    it('lists a prefix alike from its path range and from a walk of the sets (SQLite picks by the range size)', async () => {
      const pathProject = await newProjectId(fixture.repos);
      for (let i = 0; i < 24; i++) {
        const creatorId = i % 5 === 0 ? bob : ann;
        const filePath = `${i % 2 === 0 ? 'p' : 'q'}/${i}.txt`;
        const file = (await fixture.repos.files.create(newFile(pathProject, { creatorId, filePath }), at(i)))
          .file;
        if (i % 3 === 0 && creatorId === ann)
          await fixture.repos.files.addAclEntry(file.id, { scope: 'user', identifier: bob }, at(i));
        if (i % 4 === 0)
          await fixture.repos.files.addAclEntry(file.id, { scope: 'role', identifier: 'editors' }, at(i));
      }
      const readers = [
        reader(ann),
        reader(bob),
        reader(cat, 'editors'),
        reader(eve, 'admin', { isAdmin: true }),
      ];
      for (const base of readers) {
        const query = { ...base, projectId: pathProject };
        const everything = (await fixture.repos.files.list(query)).files;
        const expected = everything.filter((file) => file.filePath.startsWith('p/')).map((file) => file.id);
        // A cap of 0 walks the sets (the range holds more); 1,000 reads the range.
        for (const pathRangeCap of [0, 1000]) {
          for (let offset = 0; offset <= expected.length; offset += 2) {
            const page = await listFiles(
              fixture.database.db,
              { ...query, filePathPrefix: 'p/', limit: 2, offset },
              { pathRangeCap },
            );
            const where = `${base.readerId}, cap ${pathRangeCap}, offset ${offset}`;
            assert.deepEqual(
              page.files.map((file) => file.id),
              expected.slice(offset, offset + 2),
              where,
            );
            assert.equal(page.total, expected.length, where);
          }
        }
      }
    });

    it('lists the shares of an export written before file_acl carried its listing keys (coffer import)', async () => {
      const db = fixture.database.db;
      const importProject = await newProjectId(fixture.repos);
      const file = (await fixture.repos.files.create(newFile(importProject, { creatorId: ann }), at(0))).file;
      const fileRow = await db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', file.id)
        .executeTakeFirstOrThrow();
      await fixture.repos.files.delete(file.id);
      const oldEntry = (identifier: string, position: number) => ({
        table: 'file_acl' as const,
        row: { file_id: file.id, scope: 'user', identifier, position },
      });
      async function* exported() {
        yield { table: 'files' as const, row: fileRow };
        yield oldEntry(ann, 0);
        yield oldEntry(bob, 1);
      }
      await writeAllRows(db, exported());
      const asBob = await fixture.repos.files.list({ ...reader(bob), projectId: importProject });
      assert.deepEqual(
        asBob.files.map((listed) => listed.id),
        [file.id],
      );
    });

    it('breaks ties in createdAt by id, descending', async () => {
      const tieProject = await newProjectId(fixture.repos);
      // Lowercase letters sort alike in every collation (PostgreSQL may use en_US, SQLite bytes).
      const base = `tie${randomBytes(8).toString('hex')}`;
      const ids = [`${base}b`, `${base}c`, `${base}a`];
      for (const id of ids)
        await fixture.repos.files.create(newFile(tieProject, { id, creatorId: ann }), at(0));
      const listed = await fixture.repos.files.list({ ...reader(ann), projectId: tieProject });
      assert.deepEqual(
        listed.files.map((file) => file.id),
        [...ids].sort().reverse(),
      );
    });

    it('filters by a literal, case-sensitive filePath prefix (% and _ are no wildcards)', async () => {
      const prefixProject = await newProjectId(fixture.repos);
      const paths = [
        'a%b/x.txt',
        'a%b',
        'a_b/y.txt',
        'axb/z.txt',
        'A%B/w.txt',
        'aXb%/v.txt',
        'ü/ä.txt',
        'üb.txt',
      ];
      for (const [i, filePath] of paths.entries()) {
        await fixture.repos.files.create(newFile(prefixProject, { creatorId: ann, filePath }), at(i));
      }
      const pathsFor = async (filePathPrefix?: string) => {
        const query = {
          ...reader(ann),
          projectId: prefixProject,
          ...(filePathPrefix === undefined ? {} : { filePathPrefix }),
        };
        const listed = await fixture.repos.files.list(query);
        assert.equal(listed.total, listed.files.length);
        return listed.files.map((file) => file.filePath).sort();
      };
      assert.deepEqual(await pathsFor('a%b'), ['a%b', 'a%b/x.txt']);
      assert.deepEqual(await pathsFor('a_b'), ['a_b/y.txt']);
      assert.deepEqual(await pathsFor('a%b/'), ['a%b/x.txt']);
      assert.deepEqual(await pathsFor('A'), ['A%B/w.txt']);
      assert.deepEqual(await pathsFor('ü/'), ['ü/ä.txt']);
      assert.deepEqual(await pathsFor('%'), []);
      assert.deepEqual(await pathsFor(''), [...paths].sort());
      assert.deepEqual(await pathsFor(), [...paths].sort());
    });
  });
}
