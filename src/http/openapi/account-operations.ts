import type { ErrorCode } from '../../errors/error-codes.ts';
import type { Operation } from './operation.ts';

const mailRequest: ErrorCode[] = ['VALIDATION_FAILED', 'RATE_LIMITED'];
const accepted = {
  status: 202,
  description:
    'Accepted: the same answer whether or not the address has an account (which alone gets a mail)',
} as const;
/** A mail's token is a field of the body, not the caller's credential: a bad one is 400. */
const tokenSpend = {
  errors: ['VALIDATION_FAILED', 'INVALID_TOKEN'] as ErrorCode[],
  errorStatuses: { INVALID_TOKEN: 400 },
};

/** Accounts by email (issue 23): app credentials; the mails' tokens are credentials of their own. */
export const accountOperations: Record<string, Operation> = {
  'POST /api/v1/auth/password-reset': {
    operationId: 'requestPasswordReset',
    access: 'app',
    errors: mailRequest,
    success: accepted,
  },
  'POST /api/v1/auth/password-reset/confirm': {
    operationId: 'confirmPasswordReset',
    access: 'app',
    ...tokenSpend,
    success: { status: 204, description: 'The password is changed and every session of the account ended' },
  },
  'POST /api/v1/auth/verify-email': {
    operationId: 'requestEmailVerification',
    access: 'app',
    errors: [...mailRequest, 'AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'ACCOUNT_DISABLED'],
    success: accepted,
  },
  'POST /api/v1/auth/verify-email/confirm': {
    operationId: 'confirmEmailVerification',
    access: 'app',
    ...tokenSpend,
    success: { status: 204, description: 'The address is verified' },
  },
  'POST /api/v1/auth/magic-link': {
    operationId: 'requestMagicLink',
    access: 'app',
    errors: [...mailRequest, 'ACCESS_DENIED'],
    success: accepted,
  },
  'POST /api/v1/auth/magic-link/confirm': {
    operationId: 'confirmMagicLink',
    access: 'app',
    ...tokenSpend,
    errors: [
      ...tokenSpend.errors,
      'ACCESS_DENIED',
      'ACCOUNT_DISABLED',
      'EMAIL_NOT_VERIFIED',
      'MFA_REQUIRED',
      'MFA_ENROLMENT_REQUIRED',
    ],
    success: { status: 200, component: 'LoginResult' },
  },
};
