import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { clientTypesFile, generateClientTypes } from '../../scripts/client-types.ts';

it("@coffer/client's types are those of the server's OpenAPI document (npm run client:types)", async () => {
  const committed = await readFile(clientTypesFile, 'utf8');
  assert.ok(
    committed === (await generateClientTypes()),
    'packages/client/src/api-types.ts differs from the document: run npm run client:types and commit it',
  );
});
