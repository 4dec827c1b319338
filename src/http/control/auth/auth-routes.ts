import { changePassword } from './change-password.ts';
import { convertAnonymous } from './convert-anonymous.ts';
import { login } from './login.ts';
import { logout } from './logout.ts';
import { refreshSession } from './refresh-session.ts';
import { signup } from './signup.ts';
import { signupAnonymous } from './signup-anonymous.ts';

/** The /api/v1 routes of login, signup, sessions and passwords, in the order they are registered (and documented). */
export const authRoutes = [
  login,
  signup,
  signupAnonymous,
  convertAnonymous,
  refreshSession,
  logout,
  changePassword,
];
