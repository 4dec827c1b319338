import { confirmEmailChange } from './confirm-email-change.ts';
import { deleteOwnAccount } from './delete-own-account.ts';
import { findUser } from './find-user.ts';
import { getProfile } from './get-profile.ts';
import { requestEmailChange } from './request-email-change.ts';
import { revertEmailChange } from './revert-email-change.ts';

/** The /api/v1 routes of profiles and user lookup, in the order they are registered (and documented). */
export const userRoutes = [
  getProfile,
  findUser,
  requestEmailChange,
  confirmEmailChange,
  revertEmailChange,
  deleteOwnAccount,
];
