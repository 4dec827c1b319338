import { type ErrorCode, errorCodes } from './error-codes.ts';

/** The stores whose failures answer UNAVAILABLE or STORAGE_FULL. */
export type StoreName = 'database' | 'blob store';

/** The files a call about many of them refused: at most a page of ids, and how many more. */
export type ErrorDetails =
  | { fileIds: string[]; moreFileIds: number }
  | { signature: string }
  | { reason: string };

/** The one error type Coffer throws on purpose; build it through the factories in errors.ts. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  readonly headers: Readonly<Record<string, string>>;
  /** UNAVAILABLE and STORAGE_FULL: the store that failed (metrics count by it). */
  readonly store?: StoreName;
  /**
   * What the message cannot carry readably: the ids a many-file call refused (issue 40), the
   * signature a malware scanner found (FILE_INFECTED, issue 42).
   */
  readonly details?: ErrorDetails;
  /** Fields the body carries beside the usual ones (MFA_REQUIRED's `mfaToken` and `methods`, issue 41). */
  readonly extra?: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      cause?: unknown;
      headers?: Record<string, string>;
      store?: StoreName;
      /** Where one code answers two statuses (INVALID_TOKEN: 401 for a bearer token, 400 for a mail's). */
      statusCode?: number;
      details?: ErrorDetails;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = options.statusCode ?? errorCodes[code];
    this.headers = options.headers ?? {};
    if (options.store !== undefined) this.store = options.store;
    if (options.details !== undefined) this.details = options.details;
    if (options.extra !== undefined) this.extra = options.extra;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
