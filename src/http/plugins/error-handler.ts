import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppError, type ErrorDetails, isAppError } from '../../errors/app-error.ts';
import type { ErrorCode } from '../../errors/error-codes.ts';
import {
  bodyTooLarge,
  internal,
  methodNotAllowed,
  notFound,
  unsupportedMediaType,
  validationFailed,
} from '../../errors/errors.ts';

/** The one JSON shape of every error (DESIGN §5). */
export type ErrorBody = {
  statusCode: number;
  error: string;
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
  /** MFA_REQUIRED: the token of the second step and the factors it takes (issue 41). */
  mfaToken?: string;
  methods?: string[];
  /** MFA_ENROLMENT_REQUIRED: the bearer token good only for enrolling a factor. */
  enrolmentToken?: string;
};

export function toErrorBody(error: AppError): ErrorBody {
  return {
    statusCode: error.statusCode,
    error: STATUS_CODES[error.statusCode] ?? extraReasons[error.statusCode] ?? 'Error',
    code: error.code,
    message: error.message,
    ...(error.details !== undefined && { details: error.details }),
    ...error.extra,
  };
}

/** Reasons of statuses Node does not know: tus's checksum mismatch. */
const extraReasons: Record<number, string> = { 460: 'Checksum Mismatch' };

const contentHeaders = [
  'content-type',
  'content-length',
  'content-range',
  'content-disposition',
  'etag',
  'last-modified',
];

/** Installs the error and not-found handlers: every failure leaves as ErrorBody with a stable code. */
export function installErrorHandler(app: FastifyInstance, options: { jsonBodyLimitBytes: number }): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error, options.jsonBodyLimitBytes);
    if (appError.code === 'INTERNAL' || appError.code === 'UNAVAILABLE' || appError.code === 'STORAGE_FULL') {
      request.log.error({ err: error }, 'request failed');
    }
    if (reply.raw.headersSent) {
      // A response stream has started: the status is gone, so cut the connection to tell the
      // client the body is incomplete.
      request.raw.socket?.destroy();
      return;
    }
    // The error body is not the content a handler may have started describing (a download sets
    // its type, length and name before it finds the range unsatisfiable or the store gone).
    for (const header of contentHeaders) reply.removeHeader(header);
    return reply.code(appError.statusCode).headers(appError.headers).send(toErrorBody(appError));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = notFound(`route ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(error.statusCode).send(toErrorBody(error));
  });
}

/** Translates framework errors into our codes; anything unknown becomes INTERNAL, with no detail. */
function toAppError(error: FastifyError, jsonBodyLimitBytes: number): AppError {
  if (isAppError(error)) return error;
  if (error.validation)
    return validationFailed(
      `${error.validationContext ?? 'request'}${error.message.replace(/^(body|querystring|params|headers)/, '')}`,
    );
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(jsonBodyLimitBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return validationFailed('The body is not valid JSON');
  }
  const status = error.statusCode ?? 500;
  if (error instanceof SyntaxError && status === 400) return validationFailed('The body is not valid JSON');
  if (status === 404) return notFound();
  if (status === 405) return methodNotAllowed();
  if (status === 413) return bodyTooLarge(jsonBodyLimitBytes);
  if (status === 415) return unsupportedMediaType();
  if (status >= 400 && status < 500) return validationFailed(error.message);
  return internal(error);
}
