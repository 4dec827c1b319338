// How Coffer's generated types read the document's binary bodies (`type: string, format:
// binary`): openapi-typescript makes them `string` unless told otherwise, and a string is not
// bytes. This is openapi-typescript's own recipe (its `transform` option): a request body takes
// what fetch sends as-is (a Blob, an ArrayBuffer, a Uint8Array), a multipart part a Blob (as
// FormData does), an answer a Blob. `npm run client:types` and the generated-client test use it,
// and the README shows it to anyone generating a client of their own.
import type { OpenAPITSOptions } from 'openapi-typescript';
import ts from 'typescript';

const reference = (name: string) => ts.factory.createTypeReferenceNode(name);
const sendable = ts.factory.createUnionTypeNode([
  reference('Blob'),
  reference('ArrayBuffer'),
  reference('Uint8Array'),
]);

/** openapi-typescript's `transform`: binary schemas as bytes; anything else as it would. */
export const binaryAsBytes: NonNullable<OpenAPITSOptions['transform']> = (schema, { path = '' }) => {
  if (schema.format !== 'binary') return undefined;
  const rawRequestBody = path.includes('/requestBody/') && !path.includes('multipart');
  return rawRequestBody ? sendable : reference('Blob');
};
