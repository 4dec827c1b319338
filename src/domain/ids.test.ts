import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isWellFormedId, newId } from './ids.ts';

it('ids are 22 URL-safe characters, unique, and never start like a command-line option', () => {
  const ids = Array.from({ length: 5000 }, newId);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.match(id, /^[A-Za-z0-9][A-Za-z0-9_-]{21}$/);
    assert.ok(isWellFormedId(id));
  }
});
