import assert from 'node:assert/strict';
import { it } from 'node:test';
import { migrationNames } from './migrate-to-latest.ts';
import { migrationSafety } from './migration-safety.ts';

// The rule (migration-safety.ts): every registered migration says, in the same commit, whether
// nodes of the previous release may keep serving beside it — `expand` only if every write the
// previous release makes stays correct on the new schema and nothing it reads goes away;
// otherwise `contract`, with a one-line reason either way. `coffer migrate --dry-run` prints it.
it('every registered migration is classified expand or contract, with a one-line reason (migration-safety.ts)', () => {
  const unclassified = migrationNames.filter((name) => !(name in migrationSafety));
  assert.deepEqual(
    unclassified,
    [],
    `classify ${unclassified.join(', ')} in src/persistence/migrations/migration-safety.ts: expand (older nodes may keep serving beside it) or contract (stop them first), with the reason`,
  );
  const unknown = Object.keys(migrationSafety).filter((name) => !migrationNames.includes(name));
  assert.deepEqual(unknown, [], 'migration-safety.ts names migrations that are not registered');
  for (const [name, { kind, reason }] of Object.entries(migrationSafety)) {
    assert.ok(kind === 'expand' || kind === 'contract', name);
    assert.match(reason, /^[^\n]{8,110}$/, `${name}: one line of reason`);
  }
});
