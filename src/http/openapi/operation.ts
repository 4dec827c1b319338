import type { ErrorCode } from '../../errors/error-codes.ts';

/**
 * Who may call an operation, which decides its security alternatives and barrier errors:
 * - `public`: nobody needs anything (probes, the reference);
 * - `app`: app credentials (id + secret, or id + an allowed browser origin);
 * - `user`: app credentials and a user's bearer token;
 * - `admin`: a service key (a backend), or app credentials and a project admin's token;
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
  /** What the operation does and when to use it (the reference shows it under the summary). */
  description?: string;
  /** For routes that stream their body (their schema declares none): its media types. */
  requestBody?: {
    description: string;
    content: Record<string, { schema: Record<string, unknown> }>;
    /** A body the operation may go without (tus creation-with-upload): optional to clients. */
    required?: false;
  };
  /** The 2xx status and the component its answer is (the document names and references it). */
  success?: {
    status: 200 | 201 | 202 | 204 | 206;
    component?: string;
    description?: string;
    /** The answer's JSON schema, for routes that stream theirs (their schema declares none). */
    schema?: Record<string, unknown>;
    /** The answer is the file's bytes (its own Content-Type; the document says octet-stream). */
    binary?: boolean;
    /** A Range header gets 206 and the part asked for (with Content-Range). */
    ranges?: boolean;
    headers?: Record<string, ResponseHeader>;
  };
};

/** A header of an operation's answer, as OpenAPI shows it. */
export type ResponseHeader = { description: string; schema: { type: 'string' | 'integer' } };

/** What an operation on one file may answer for the file itself. */
export const fileRead: ErrorCode[] = ['VALIDATION_FAILED', 'ACCESS_DENIED', 'FILE_NOT_FOUND'];
