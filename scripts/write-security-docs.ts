// Rewrites the access table of docs/security.md from the authorization matrix
// (test/access/access-matrix.ts), the same data test/access/access-matrix-api.test.ts plays.
import { readFileSync, writeFileSync } from 'node:fs';
import { withAccessTable } from '../test/access/access-table.ts';

const file = 'docs/security.md';
writeFileSync(file, withAccessTable(readFileSync(file, 'utf8')));
