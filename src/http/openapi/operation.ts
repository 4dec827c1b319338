import type { ErrorCode } from '../../errors/error-codes.ts';

/**
 * Who may call an operation, which decides its security alternatives and barrier errors:
 * - `public`: nobody needs anything (probes, the reference);
 * - `app`: app credentials (id + secret, or id + an allowed browser origin);
 * - `user`: app credentials and a user's bearer token;
 * - `admin`: the app secret alone (a backend), or app credentials and a project admin's token;
 * - `link`: a signed link (its query string is the credential);
 * - `metrics`: `COFFER_METRICS_TOKEN` as a bearer token, or a direct loopback client.
 */
export type Access = 'public' | 'app' | 'user' | 'admin' | 'link' | 'metrics';

export type Operation = {
  operationId: string;
  /** For routes whose schema has none (the data plane, the probes). */
  summary?: string;
  access: Access;
  /** What the operation itself may answer, beyond its barriers' and every request's errors. */
  errors: ErrorCode[];
  /** Where a code answers another status here than its usual one (INVALID_TOKEN of a mail's token: 400). */
  errorStatuses?: Partial<Record<ErrorCode, number>>;
  /** The 2xx status and the component its answer is (the document names and references it). */
  success?: { status: 200 | 201 | 202 | 204 | 206; component?: string; description?: string };
};

/** What an operation on one file may answer for the file itself. */
export const fileRead: ErrorCode[] = ['VALIDATION_FAILED', 'ACCESS_DENIED', 'FILE_NOT_FOUND'];
