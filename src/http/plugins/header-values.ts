import type { FastifyRequest } from 'fastify';

/** A header's value when it was sent once and is not empty. */
export function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function readBearerToken(request: FastifyRequest): string | undefined {
  const header = single(request.headers.authorization);
  const match = header ? /^Bearer +([^\s]+) *$/i.exec(header) : null;
  return match?.[1] || undefined;
}
