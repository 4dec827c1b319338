import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { PartFileHandles } from './fs-part-handles.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-part-handles-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const newPart = async (name: string, content = '') => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};

it("lends one open file to an upload's consecutive chunks, with its size, until forgotten", async () => {
  const handles = new PartFileHandles();
  const path = await newPart('kept.part', 'abc');
  const first = await handles.borrow(path);
  assert.equal(first.sizeBytes, 3);
  await first.handle.write('def', 3);
  await first.giveBack(true);
  const second = await handles.borrow(path);
  assert.equal(second.handle, first.handle, 'the same open file');
  assert.equal(second.sizeBytes, 6);
  await second.giveBack(true);
  await handles.forget(path);
  assert.equal(first.handle.fd, -1, 'closed once forgotten');
  assert.equal(await readFile(path, 'utf8'), 'abcdef');
});

it('opens the path again when the kept file was removed behind its back', async () => {
  const handles = new PartFileHandles();
  const path = await newPart('removed.part', 'abc');
  const first = await handles.borrow(path);
  await first.giveBack(true);
  await rm(path);
  await assert.rejects(handles.borrow(path), { code: 'ENOENT' });
  assert.equal(first.handle.fd, -1);
  await writeFile(path, 'a new file');
  const again = await handles.borrow(path);
  assert.equal(again.sizeBytes, 10, "the file the path names now, not the removed one's");
  await again.giveBack(true);
  await handles.closeAll();
  assert.equal(again.handle.fd, -1);
});

it('lends a second append a file of its own while the kept one is out, and closes it after', async () => {
  const handles = new PartFileHandles();
  const path = await newPart('shared.part', 'abc');
  const kept = await handles.borrow(path);
  const other = await handles.borrow(path);
  assert.notEqual(other.handle, kept.handle);
  await other.giveBack(true);
  assert.equal(other.handle.fd, -1, 'not kept: the kept one is still out');
  assert.notEqual(kept.handle.fd, -1);
  await kept.giveBack(true);
  const again = await handles.borrow(path);
  assert.equal(again.handle, kept.handle);
  await again.giveBack(true);
  await handles.closeAll();
  assert.equal(kept.handle.fd, -1);
});

it('closes a file given back after a failure, and a file forgotten while lent once it comes back', async () => {
  const handles = new PartFileHandles();
  const path = await newPart('failed.part', 'abc');
  const failed = await handles.borrow(path);
  await failed.giveBack(false);
  assert.equal(failed.handle.fd, -1);
  const next = await handles.borrow(path);
  assert.notEqual(next.handle, failed.handle);
  await handles.forget(path); // published or removed while a takeover's append unwinds
  assert.notEqual(next.handle.fd, -1, 'its borrower still writes');
  await next.giveBack(true);
  assert.equal(next.handle.fd, -1);
});
