import { AppError } from './app-error.ts';

/**
 * 401 MFA_REQUIRED (issue 41): the password (or mail link, or provider) was right and the user
 * has a second factor: no session yet; the answer carries the token of the second step.
 */
export const mfaRequired = (mfaToken: string, methods: string[]) =>
  new AppError('MFA_REQUIRED', 'Send a code of your second factor to POST /api/v1/auth/mfa', {
    extra: { mfaToken, methods },
  });

/** 403 MFA_ENROLMENT_REQUIRED: the project requires a second factor and the user has none yet. */
export const mfaEnrolmentRequired = (enrolmentToken: string) =>
  new AppError(
    'MFA_ENROLMENT_REQUIRED',
    'This project requires a second factor: enrol one with the enrolmentToken, then sign in again',
    { extra: { enrolmentToken } },
  );

/** The mfaToken is unknown, spent, expired or ended by wrong codes: sign in again. */
export const invalidMfaToken = () =>
  new AppError('INVALID_TOKEN', 'The mfaToken is not valid, was used or has expired: sign in again');

/** Confirming an enrolment that was never started (or was replaced by a newer one). */
export const noPendingFactor = () =>
  new AppError('VALIDATION_FAILED', 'No enrolment is pending: POST /api/v1/user/mfa/totp first', {
    statusCode: 400,
  });
