import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../errors/app-error.ts';
import { headersTooLarge, requestTimeout, validationFailed } from '../../errors/errors.ts';
import { toErrorBody } from './error-handler.ts';
import { referrerPolicy } from './response-hardening.ts';

// Errors Node or the router raise before a request reaches our handlers still leave in our
// one JSON shape with a stable code (DESIGN §5), never in Fastify's own.

/**
 * Requests answered before their body ended (an upload refused early while the client kept
 * sending), by connection. Node still reads the rest of such a body; if it then breaks off or
 * times out, the request already has its one answer and must not get a second. Once the body
 * is complete, errors on the connection belong to the next request again.
 */
const answeredBeforeBodyEnd = new WeakMap<Socket, IncomingMessage>();

/** Remembers requests answered before their body has all arrived. */
export function trackEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete && reply.raw.socket) answeredBeforeBodyEnd.set(reply.raw.socket, request.raw);
    done(null, payload);
  });
}

function isAnsweredAlready(socket: Socket): boolean {
  const request = answeredBeforeBodyEnd.get(socket);
  return request !== undefined && !request.complete;
}

/** How long a connection refused as not HTTP is still read from (and dropped) before it closes. */
const lingerMs = 2000;

/** Fastify's clientErrorHandler: a request Node could not even parse. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Once answered, the connection only drains: later parse errors of the same bytes are moot.
  if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  // A request answered before its body ended already has its one answer.
  closeLingering(socket, isAnsweredAlready(socket) ? '' : toRawErrorResponse(error));
}

function toRawErrorResponse(error: Error & { code?: string }): string {
  const appError: AppError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? requestTimeout()
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge()
        : validationFailed('The request is not valid HTTP');
  const body = JSON.stringify(toErrorBody(appError));
  // A response to HEAD never carries a body (RFC 9110 §9.3.2), even when the rest of the
  // request could not be parsed: a client would read it as the start of the next response.
  const { rawPacket } = error as { rawPacket?: unknown };
  const isHead = Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  return (
    `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode]}\r\nConnection: close\r\n` +
    `${referrerPolicy.name}: ${referrerPolicy.value}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
    (isHead ? '' : body)
  );
}

/**
 * RFC 9112 §9.6: closing at once while the client still sends resets the connection, and the
 * client's TCP stack may then drop the answer before the client reads it. So: send the last
 * bytes and half-close, keep reading (Node's parser drops what comes), close for good when
 * the client does or after a moment.
 */
function closeLingering(socket: Socket, lastBytes: string): void {
  if (socket.writable) socket.end(lastBytes);
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
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

/**
 * RFC 9110 §10.1.1: a server that receives an expectation other than 100-continue MAY answer
 * 417. Node's own 417 has an empty body, outside our error shape; ignoring the expectation and
 * serving the request, as the RFC also allows, is what clients cope with best.
 */
export function ignoreUnknownExpectations(server: Pick<Server, 'on' | 'emit'>): void {
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
}
