import type { ErrorCode } from '../../errors/error-codes.ts';
import type { Operation } from './operation.ts';

/** A mail's token is a field of the body, not the caller's credential: a bad one is 400. */
const tokenSpend = {
  errors: ['VALIDATION_FAILED', 'INVALID_TOKEN', 'EMAIL_TAKEN'] as ErrorCode[],
  errorStatuses: { INVALID_TOKEN: 400 },
};

/** A user's own address and account (issue 41, items 3 and 5). */
export const ownAccountOperations: Record<string, Operation> = {
  'POST /api/v1/user/email': {
    operationId: 'requestEmailChange',
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'ACCESS_DENIED',
      'INVALID_LOGIN',
      'REAUTHENTICATION_REQUIRED',
      'RATE_LIMITED',
    ],
    success: {
      status: 202,
      description:
        'Accepted: the same answer whether the new address is free (it gets a link) or another account’s (no mail goes)',
    },
  },
  'POST /api/v1/user/email/confirm': {
    operationId: 'confirmEmailChange',
    access: 'app',
    ...tokenSpend,
    success: {
      status: 204,
      description:
        'The address is changed and verified, other sessions ended, the old address mailed a way back',
    },
  },
  'POST /api/v1/user/email/revert': {
    operationId: 'revertEmailChange',
    access: 'app',
    ...tokenSpend,
    success: { status: 204, description: 'The old address is back and every session of the account ended' },
  },
  'DELETE /api/v1/user': {
    operationId: 'deleteOwnAccount',
    access: 'user',
    errors: [
      'VALIDATION_FAILED',
      'ACCESS_DENIED',
      'INVALID_LOGIN',
      'REAUTHENTICATION_REQUIRED',
      'RATE_LIMITED',
    ],
    success: { status: 204, description: 'The account and everything it held are deleted' },
  },
};
