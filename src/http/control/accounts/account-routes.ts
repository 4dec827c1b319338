import { confirmEmailVerification } from './confirm-email-verification.ts';
import { confirmMagicLink } from './confirm-magic-link.ts';
import { confirmPasswordReset } from './confirm-password-reset.ts';
import { requestEmailVerification } from './request-email-verification.ts';
import { requestMagicLink } from './request-magic-link.ts';
import { requestPasswordReset } from './request-password-reset.ts';

/** The /api/v1 routes of accounts by email (issue 23), in the order they are registered (and documented). */
export const accountRoutes = [
  requestPasswordReset,
  confirmPasswordReset,
  requestEmailVerification,
  confirmEmailVerification,
  requestMagicLink,
  confirmMagicLink,
];
