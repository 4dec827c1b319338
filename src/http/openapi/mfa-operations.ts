import type { Operation } from './operation.ts';

/** Second factors (issue 41): TOTP enrolment and removal, and the second step of a sign-in. */
export const mfaOperations: Record<string, Operation> = {
  'POST /api/v1/auth/mfa': {
    operationId: 'passMfa',
    access: 'app',
    errors: ['VALIDATION_FAILED', 'INVALID_TOKEN', 'INVALID_LOGIN', 'ACCOUNT_DISABLED', 'RATE_LIMITED'],
    success: { status: 200, component: 'LoginResult' },
  },
  'POST /api/v1/user/mfa/totp': {
    operationId: 'startTotp',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'REAUTHENTICATION_REQUIRED', 'RATE_LIMITED'],
    success: { status: 200, description: 'The secret, its otpauth URL and QR code, shown this once' },
  },
  'POST /api/v1/user/mfa/totp/confirm': {
    operationId: 'confirmTotp',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'RATE_LIMITED'],
    success: { status: 200, description: 'Ten recovery codes, shown this once' },
  },
  'DELETE /api/v1/user/mfa/totp': {
    operationId: 'removeTotp',
    access: 'user',
    errors: ['VALIDATION_FAILED', 'INVALID_LOGIN', 'RATE_LIMITED'],
    success: { status: 204, description: 'Removed' },
  },
};
