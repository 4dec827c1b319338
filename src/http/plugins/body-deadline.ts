import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestTimeout } from '../../errors/errors.ts';

/**
 * A request body must arrive within `timeoutSeconds` of its headers on every route but those
 * that stream large bodies (`config: { streamsBody: true }`, the uploads), which Node's
 * request timeout bounds instead. security: without it a client trickling a JSON body one
 * byte at a time holds a connection for the whole upload deadline (an hour).
 *
 * A body still being parsed when the deadline passes answers 408 REQUEST_TIMEOUT and closes
 * the connection; a body nobody reads (the answer is already out, e.g. a 401 from a barrier)
 * just has its connection closed.
 */
export function installBodyDeadline(app: FastifyInstance, options: { timeoutSeconds: number }): void {
  const parsing = new WeakMap<IncomingMessage, { source: Readable; body: PassThrough }>();

  app.addHook('onRequest', (request, reply, done) => {
    if (!hasBody(request) || request.routeOptions.config?.streamsBody) return done();
    const timer = setTimeout(() => expire(request, reply), options.timeoutSeconds * 1000).unref();
    const stop = () => clearTimeout(timer);
    request.raw.once('end', stop).once('close', stop);
    done();
  });

  // The parser reads a copy of the body stream, so that the deadline can fail that copy (the
  // parser then answers 408) without destroying the request, whose socket must carry the 408.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (!hasBody(request) || request.routeOptions.config?.streamsBody) return payload;
    const body = new PassThrough();
    payload.on('error', (error) => body.destroy(error));
    payload.pipe(body);
    parsing.set(request.raw, { source: payload, body });
    return body;
  });

  function expire(request: FastifyRequest, reply: FastifyReply) {
    if (request.raw.complete) return;
    const parse = parsing.get(request.raw);
    if (parse && !reply.sent) {
      parse.source.unpipe(parse.body);
      parse.body.destroy(requestTimeout());
    } else {
      request.raw.socket?.destroy();
    }
  }
}

/** RFC 9112 §6.3: a request has a body when it says how long it is or that it is chunked. */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
