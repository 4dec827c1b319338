// Rewrites the configuration tables of README.md and docs/config.md from src/config/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTable } from '../src/config/config-table.ts';

for (const file of ['README.md', 'docs/config.md']) {
  writeFileSync(file, withConfigTable(readFileSync(file, 'utf8')));
}
