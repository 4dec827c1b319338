import { Type } from '@sinclair/typebox';
import type { GatewayLink } from '../../domain/files/file-service.ts';
import { invalidSignature } from '../../errors/errors.ts';

export const GatewayParams = Type.Object({ fileId: Type.String() });
export const GatewayQuery = Type.Object({
  exp: Type.Optional(Type.String()),
  kid: Type.Optional(Type.String()),
  sig: Type.Optional(Type.String()),
});

/** Reads a gateway link from the path and query; a link missing a part is a bad signature. */
export function toGatewayLink(
  params: { fileId: string },
  query: { exp?: string; kid?: string; sig?: string },
): GatewayLink {
  if (!query.exp || !/^\d{1,12}$/.test(query.exp) || !query.kid || !query.sig) throw invalidSignature();
  return { fileId: params.fileId, expiresAt: Number(query.exp), kid: query.kid, sig: query.sig };
}
