import { Type } from '@sinclair/typebox';
import { getUserByEmail } from '../../../domain/identity/accounts.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { UserProfileSchema } from '../../wire/schemas.ts';
import { toProfileView } from '../../wire/to-wire.ts';

/**
 * GET /api/v1/users?email=E: the profile of the project's user with this email
 * (case-insensitive), as GET /api/v1/user shows one's own; for holders of the project's admin
 * role only (403 ACCESS_DENIED), 404 USER_NOT_FOUND when there is none.
 */
export const findUser: RouteRegistrar = (app, services) => {
  app.get(
    '/users',
    {
      schema: {
        summary: 'Find a user by email (admins)',
        tags: ['users'],
        querystring: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }),
        response: { 200: UserProfileSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await getUserByEmail(services.repositories.users, request.principal, request.query.email);
      return toProfileView(user, await services.oauthSignIn.providersOf(user));
    },
  );
};
