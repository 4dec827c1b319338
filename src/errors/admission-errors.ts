import { AppError } from './app-error.ts';

// The admission gate's refusals (issue 42): what stops bytes from becoming a readable file.

/** How long a client waits before verifying again when the scanner could not answer. */
export const scannerRetryAfterSeconds = 30;

/** The scanner found malware: the bytes are deleted; `details.signature` names what it found. */
export const fileInfected = (signature: string) =>
  new AppError(
    'FILE_INFECTED',
    `The malware scanner found ${signature} in the upload; its bytes were deleted`,
    {
      details: { signature },
    },
  );

/** The scanner did not answer: nothing is lost, the same verify succeeds once it does. */
export const scannerUnavailable = (cause?: unknown) =>
  new AppError(
    'SCANNER_UNAVAILABLE',
    `The malware scanner is unavailable; the upload is kept, verify again in ${scannerRetryAfterSeconds} s`,
    { cause, headers: { 'retry-after': String(scannerRetryAfterSeconds) } },
  );

/** Larger than the scanner takes (its StreamMaxLength) and the project refuses what it cannot scan. */
export const tooLargeToScan = (limitBytes: number) =>
  new AppError(
    'FILE_TOO_LARGE',
    `The file exceeds ${limitBytes} bytes, the largest the malware scanner takes; this project refuses files it cannot scan`,
  );
