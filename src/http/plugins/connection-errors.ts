import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../errors/app-error.ts';
import { headersTooLarge, requestTimeout, validationFailed } from '../../errors/errors.ts';
import { toErrorBody } from './error-handler.ts';
import { referrerPolicy } from './response-hardening.ts';

// Errors Node or the router raise before a request reaches our handlers still leave in our
// one JSON shape with a stable code (DESIGN §5), never in Fastify's own.

/** Fastify's clientErrorHandler: a request Node could not even parse. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError: AppError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? requestTimeout()
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge()
        : validationFailed('The request is not valid HTTP');
  const body = JSON.stringify(toErrorBody(appError));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode]}\r\nConnection: close\r\n` +
        `${referrerPolicy.name}: ${referrerPolicy.value}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's frameworkErrors: a URL that does not decode, before any route is chosen. */
export function answerFrameworkError(_error: Error, _request: FastifyRequest, reply: FastifyReply) {
  const appError = validationFailed('The URL is not validly percent-encoded');
  return reply.code(appError.statusCode).send(toErrorBody(appError));
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. Node answers it itself with an
 * empty body (its requireHostHeader, turned off in app.ts), so the rule is kept here instead.
 */
export function installHostRequirement(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw validationFailed('An HTTP/1.1 request needs a Host header');
    }
  });
}
