import {
  archivePathPrefix,
  blobPathPrefix,
  renditionPathPrefix,
  resumablePathPrefix,
  versionUploadPathPrefix,
} from '../../domain/links/link-issuer.ts';

/**
 * The query string of a signed link, as the document states it for each link route: exactly the
 * fields the issuer writes into that kind of link (toGatewayQuery), all required, in the one
 * order the gateway accepts. security: the gateway takes only the issued spelling, so no field is
 * optional here: a generated client that left one out, or added one, would send a string the
 * signature does not cover (INVALID_SIGNATURE). openapi-fetch sends a query object's keys in the
 * order they were written, which is this one (README, "Calling a signed link").
 */

const fields = {
  exp: { type: 'integer', description: 'Unix seconds at which the link expires (signed)' },
  gen: {
    type: 'integer',
    description: "the file's links generation when the link was issued (signed); a revocation moves it on",
  },
  ver: {
    type: 'string',
    description:
      'the version the link was issued for (signed); it keeps serving those bytes after the file gets new content',
  },
  kid: { type: 'string', description: 'the signing key' },
  sig: { type: 'string', description: 'the signature (base64url)' },
} as const;

type Field = keyof typeof fields;

/** Which fields each kind of link carries (link-issuer.ts writes them). */
const linkKinds: { prefix: string; methods?: string[]; fields: Field[] }[] = [
  { prefix: blobPathPrefix, methods: ['PUT'], fields: ['exp', 'kid', 'sig'] },
  { prefix: blobPathPrefix, fields: ['exp', 'gen', 'ver', 'kid', 'sig'] },
  { prefix: versionUploadPathPrefix, fields: ['exp', 'kid', 'sig'] },
  { prefix: renditionPathPrefix, fields: ['exp', 'gen', 'kid', 'sig'] },
  { prefix: resumablePathPrefix, fields: ['exp', 'gen', 'kid', 'sig'] },
  { prefix: archivePathPrefix, fields: ['exp', 'kid', 'sig'] },
];

/** The querystring schema of a link route; a link route of no known kind stops the start. */
export function toLinkQuery(method: string, url: string) {
  const kind = linkKinds.find(
    ({ prefix, methods }) => url.startsWith(prefix) && (!methods || methods.includes(method)),
  );
  if (!kind) throw new Error(`${method} ${url} is a link route of no kind in src/http/openapi/link-query.ts`);
  return {
    type: 'object',
    required: kind.fields,
    properties: Object.fromEntries(kind.fields.map((field) => [field, fields[field]])),
    additionalProperties: false,
  };
}
