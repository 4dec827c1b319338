// Rewrites packages/client/src/api-types.ts from the server's OpenAPI document.
import { writeFile } from 'node:fs/promises';
import { clientTypesFile, generateClientTypes } from './client-types.ts';

await writeFile(clientTypesFile, await generateClientTypes());
console.log(`wrote ${clientTypesFile}`);
