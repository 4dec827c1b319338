import { Type } from '@sinclair/typebox';
import type { GatewayLink } from '../../domain/files/get-linked-file.ts';
import { isWellFormedId } from '../../domain/ids.ts';
import { toGatewayQuery } from '../../domain/links/link-issuer.ts';
import { invalidSignature } from '../../errors/errors.ts';

export const GatewayParams = Type.Object({ fileId: Type.String() });

// `gen` (download links since links generations, docs/security.md "Revoking links") is optional:
// a download link issued before has none and counts as generation 0.
// `ver` (download links since issue 38) names the version the link was issued for.
const linkQuery = /^exp=(\d{1,12})(?:&gen=(\d{1,12}))?(?:&ver=([^&]*))?&kid=([^&]*)&sig=([^&]*)$/;

/**
 * Reads a gateway link from the raw request URL (path and query as the client sent them, not
 * decoded). security: only the exact spelling the issuer produces is a link; anything else
 * (a percent-encoded or trailing-slashed file id, a leading zero in `exp`, a duplicated, extra
 * or reordered parameter, a missing part) is INVALID_SIGNATURE, like an altered signature.
 */
export function toGatewayLink(url: string, params: { fileId: string }): GatewayLink {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const { fileId } = params;
  const match = linkQuery.exec(query);
  if (!match || !isWellFormedId(fileId) || !path.endsWith(`/${fileId}`)) throw invalidSignature();
  const [, exp = '', gen, version, kid = '', sig = ''] = match;
  const generation = gen === undefined ? undefined : Number(gen);
  // A version is only ever signed with a generation (v4): without one it is no issued spelling.
  if (version !== undefined && (generation === undefined || !isWellFormedId(version)))
    throw invalidSignature();
  const expiresAt = Number(exp);
  if (query !== toGatewayQuery({ expiresAt, generation, version, keyId: kid, signature: sig }))
    throw invalidSignature();
  return {
    fileId,
    expiresAt,
    ...(generation !== undefined && { generation }),
    ...(version !== undefined && { version }),
    kid,
    sig,
  };
}
