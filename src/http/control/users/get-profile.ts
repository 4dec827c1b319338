import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toUserCaller } from '../../user-caller.ts';
import { UserProfileSchema } from '../../wire/schemas.ts';
import { toProfileView } from '../../wire/to-wire.ts';

/** Spec 4.7: GET /api/v1/user → the profile of the caller. */
export const getProfile: RouteRegistrar = (app, services) => {
  app.get(
    '/user',
    {
      schema: {
        summary: 'Current user profile',
        tags: ['users'],
        response: { 200: UserProfileSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { user } = toUserCaller(request);
      return toProfileView(user, await services.oauthSignIn.providersOf(user));
    },
  );
};
