import { confirmEmailChange } from './confirm-email-change.ts';
import { deleteOwnAccount } from './delete-own-account.ts';
import { endOtherSessions } from './end-other-sessions.ts';
import { endSession } from './end-session.ts';
import { findUser } from './find-user.ts';
import { getProfile } from './get-profile.ts';
import { listSessions } from './list-sessions.ts';
import { requestEmailChange } from './request-email-change.ts';
import { revertEmailChange } from './revert-email-change.ts';

/** The /api/v1 routes of profiles, user lookup and a user's own account, in the order they are registered (and documented). */
export const userRoutes = [
  getProfile,
  findUser,
  requestEmailChange,
  confirmEmailChange,
  revertEmailChange,
  deleteOwnAccount,
  listSessions,
  endSession,
  endOtherSessions,
];
