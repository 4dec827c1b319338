import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { withConfigTable } from '../../src/config/config-table.ts';

for (const file of ['README.md', 'docs/config.md']) {
  it(`${file} lists every setting as src/config/settings.ts defines it (npm run docs:config)`, () => {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    assert.equal(text, withConfigTable(text));
  });
}
