import type { Operation } from './operation.ts';

/** A user's own sessions (issue 41, item 4): each is a refresh-token family, ended as its logout is. */
export const sessionOperations: Record<string, Operation> = {
  'GET /api/v1/user/sessions': {
    operationId: 'listSessions',
    description:
      "The caller's live sessions (each sign-in that has not ended: logout, expiry, a password change, an end here), newest first, at most 100: where each began (`ip`, `userAgent`), how (`method`: password, magic-link, oauth:<provider>, anonymous, passkey…), when (`createdAt`) and when it was last refreshed (`lastUsedAt`: calls with its access token are not recorded). `current` marks the caller's own.",
    access: 'user',
    errors: [],
    success: { status: 200, description: 'The sessions, newest first' },
  },
  'DELETE /api/v1/user/sessions/:sessionId': {
    operationId: 'endSession',
    description:
      "Ends one of the caller's sessions as its logout would: its refresh token and its access tokens are refused at once, on every node (`user.session_ended`). An id that is not a live session of the caller (another user's too) is 404 SESSION_NOT_FOUND. Ending the caller's own session is a logout.",
    access: 'user',
    errors: ['VALIDATION_FAILED', 'SESSION_NOT_FOUND'],
    success: { status: 204, description: 'The session is ended' },
  },
  'DELETE /api/v1/user/sessions': {
    operationId: 'endOtherSessions',
    description:
      'Ends every session of the caller but the one calling (a `user.session_ended` each), at once on every node: sign out everywhere else.',
    access: 'user',
    errors: [],
    success: { status: 204, description: 'Every other session is ended' },
  },
};
