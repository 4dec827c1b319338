import type { FastifyRequest } from 'fastify';
import type { Authenticated } from '../domain/identity/identity-service.ts';
import { assertActsForUser } from '../domain/identity/service-keys.ts';

/**
 * The signed-in user of a bearer call, for what only a user has (a profile, a password, files
 * they would own): ACCESS_DENIED for a service key, which administers a project as no user.
 */
export function toUserCaller(request: FastifyRequest): Authenticated {
  assertActsForUser(request.principal);
  // The authenticate barrier sets a user for every token that is not a service key.
  if (!request.user) throw new Error('a bearer call without its user');
  const { principal, user, sessionId, enrolmentIssuedAt } = request;
  return { principal, user, sessionId, ...(enrolmentIssuedAt !== undefined && { enrolmentIssuedAt }) };
}
