import { AppError } from './app-error.ts';

// The admission hook's refusals (issue 42, item 3): the app's own say before a file is readable.

/** How long a client waits before verifying again when the admission hook could not answer. */
export const admissionRetryAfterSeconds = 30;

/** The hook answered `{allow: false, reason}`: the bytes are deleted; `details.reason` is its reason. */
export const fileRejected = (reason: string) =>
  new AppError('FILE_REJECTED', `The project's admission hook refused the upload: ${reason}`, {
    details: { reason },
  });

/** The hook gave no usable answer (or another verify is asking it): nothing is lost, verify again. */
export const admissionUnavailable = (why: string, retryAfterSeconds = admissionRetryAfterSeconds) =>
  new AppError(
    'ADMISSION_UNAVAILABLE',
    `The project's admission hook did not admit the upload (${why}); the upload is kept, verify again in ${retryAfterSeconds} s`,
    { headers: { 'retry-after': String(retryAfterSeconds) } },
  );
