import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../errors/app-error.ts';
import { toFileName, validateFilePath } from './validate-file-path.ts';

const valid = [
  'a',
  'folder/name.txt',
  'deep/er/path/file.tar.gz',
  'ü/日本語.png',
  '.hidden',
  'a..b',
  'x'.repeat(1024),
  'é'.repeat(512),
  'with space/and-dash_.md',
];

const invalid: Array<[string, string]> = [
  ['', 'empty'],
  ['/abs.txt', 'leading slash'],
  ['a//b', 'empty segment'],
  ['a/', 'trailing slash'],
  ['./a', 'dot segment'],
  ['a/../b', 'dot-dot segment'],
  ['..', 'dot-dot alone'],
  ['a\\b', 'backslash'],
  ['a\u0000b', 'NUL'],
  ['a\nb', 'newline'],
  ['a\u007fb', 'DEL'],
  ['a\u0085b', 'C1 control'],
  ['evil\u202egpj.exe', 'bidi override'],
  ['a\u2066b', 'bidi isolate'],
  ['a\u200bb', 'zero-width space'],
  ['a\ufeffb', 'BOM'],
  ['e\u0301.txt', 'not NFC'],
  ['x'.repeat(1025), 'over 1024 bytes'],
  ['é'.repeat(513), 'over 1024 bytes in UTF-8'],
  ['a\ud800b', 'lone surrogate'],
];

describe('validateFilePath', () => {
  for (const path of valid) {
    it(`accepts ${JSON.stringify(path.slice(0, 30))}`, () => assert.equal(validateFilePath(path), path));
  }
  for (const [path, why] of invalid) {
    it(`refuses ${why}`, () => {
      assert.throws(
        () => validateFilePath(path),
        (error) => isAppError(error) && error.code === 'INVALID_FILE_PATH',
      );
    });
  }
  it('takes the last segment as the file name', () => {
    assert.equal(toFileName('a/b/c.txt'), 'c.txt');
    assert.equal(toFileName('c.txt'), 'c.txt');
  });
});
