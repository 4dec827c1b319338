import { oauthToken } from './oauth-token.ts';
import { oauthUnlink } from './oauth-unlink.ts';

/** The /api/v1 routes of provider sign-in behind the app barrier (issue 37); the popup's are in http/oauth/. */
export const signInRoutes = [oauthToken, oauthUnlink];
