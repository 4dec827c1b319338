import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { errorCodes } from '../../src/errors/error-codes.ts';

// Fastify's habit: the code table and the error reference can never drift apart.
it('docs/errors.md lists exactly the codes of the code table, with the same statuses', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const documented = Object.fromEntries(
    [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [code, Number(status)]),
  );
  assert.deepEqual(documented, { ...errorCodes });
});
