import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isWellFormedId, newFileId, newId } from './ids.ts';

it('ids are 22 URL-safe characters, unique, and never start like a command-line option', () => {
  const ids = Array.from({ length: 5000 }, newId);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.match(id, /^[A-Za-z0-9][A-Za-z0-9_-]{21}$/);
    assert.ok(isWellFormedId(id));
  }
});

it('file ids are ids of the same form, unique, and sort by their creation time in any collation', () => {
  const ids = Array.from({ length: 5000 }, newFileId);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.match(id, /^[0-9a-z]{9}[A-Za-z0-9_-]{13}$/);
    assert.ok(isWellFormedId(id));
  }
  // Later ids sort after earlier ones, whatever their random part, from 1970 to past 5000.
  const times = [0, 1, 35, 36, Date.UTC(2026, 10, 29), Date.UTC(2026, 10, 29) + 1, Date.UTC(5000, 0, 1)];
  const ordered = times.map((time) => newFileId(time));
  assert.deepEqual([...ordered].sort(), ordered);
  assert.deepEqual(
    ordered.map((id) => Number.parseInt(id.slice(0, 9), 36)),
    times,
  );
  // The time part uses only digits and lowercase letters, ordered alike by byte and by locale.
  assert.deepEqual(
    [...ordered].sort((a, b) => a.slice(0, 9).localeCompare(b.slice(0, 9))),
    ordered,
  );
});
