import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { withAccessTable } from '../access/access-table.ts';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/security.md', root), 'utf8');

describe('docs/security.md', () => {
  it('carries the access table of the authorization matrix (npm run docs:security)', () => {
    assert.equal(doc, withAccessTable(doc));
  });

  // A guarantee is only as good as the test that proves it: each bullet of "## Guarantees" names
  // test files that exist, and the titles it quotes after › are titles in those files.
  it('names, for every guarantee, tests that exist', () => {
    const section = doc.slice(
      doc.indexOf('## Guarantees'),
      doc.indexOf('\n## ', doc.indexOf('## Guarantees') + 1),
    );
    const guarantees = section.split(/\n(?=- )/).filter((block) => block.startsWith('- '));
    assert.ok(guarantees.length > 10, 'the guarantees section is missing');
    for (const guarantee of guarantees) {
      const proofs = [...guarantee.matchAll(/`((?:test|src)\/[\w./-]+\.test\.ts)`(?:\s*›\s*"([^"]+)")?/g)];
      assert.ok(proofs.length > 0, `no test named for: ${guarantee.slice(0, 80)}`);
      for (const [, file, title] of proofs) {
        assert.ok(existsSync(new URL(file!, root)), `${file} does not exist`);
        if (title) {
          const source = readFileSync(new URL(file!, root), 'utf8');
          assert.ok(source.includes(title.replace(/\s+/g, ' ')), `${file} has no test "${title}"`);
        }
      }
    }
  });
});
