import assert from 'node:assert/strict';
import { it } from 'node:test';
import { UniqueNames } from './archive-names.ts';

it('numbers a name taken before its extension, never in a folder name or a leading dot', () => {
  const names = new UniqueNames();
  const taken = [
    'a.txt',
    'a.txt',
    'a.txt',
    'dir.v2/readme',
    'dir.v2/readme',
    '.profile',
    '.profile',
    'x.tar.gz',
    'x.tar.gz',
  ].map((name) => names.take(name));
  assert.deepEqual(taken, [
    'a.txt',
    'a (2).txt',
    'a (3).txt',
    'dir.v2/readme',
    'dir.v2/readme (2)',
    '.profile',
    '.profile (2)',
    'x.tar.gz',
    'x.tar (2).gz',
  ]);
  // A name that was itself a numbered one is numbered again, never given twice.
  assert.equal(names.take('a (2).txt'), 'a (2) (2).txt');
});
