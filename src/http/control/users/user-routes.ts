import { endOtherSessions } from './end-other-sessions.ts';
import { endSession } from './end-session.ts';
import { findUser } from './find-user.ts';
import { getProfile } from './get-profile.ts';
import { listSessions } from './list-sessions.ts';

/** The /api/v1 routes of profiles and user lookup, in the order they are registered (and documented). */
export const userRoutes = [getProfile, findUser, listSessions, endSession, endOtherSessions];
