import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../../domain/access/decide-file-access.ts';
import type { Services } from '../../../services.ts';
import { toClientContext } from '../../client-context.ts';
import { readBearerToken, single } from '../../plugins/header-values.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { SseSink } from './sse-sink.ts';

/** What a client waits before reconnecting (SSE `retry`, milliseconds); our client backs off from it. */
const reconnectMs = 1000;

/**
 * Issue 22: GET /api/v1/events streams, as Server-Sent Events, the events of the files the
 * caller may read at the moment each is sent. `Last-Event-ID` replays what was missed within
 * the retention; a stream ends when its token expires (the client reconnects with a new one)
 * or its session ends (logout), within a second; a user and a client address may hold only so
 * many streams at once (429 RATE_LIMITED past them; issue 35, item 8).
 */
export const streamEvents: RouteRegistrar = (app, services) => {
  services.eventStream.reportErrorsTo((error) =>
    app.log.warn({ err: error }, 'event stream: reading the event log failed; retrying'),
  );
  // A closing server would wait for its streams for ever: they end first, and their clients
  // reconnect (to another node) with Last-Event-ID.
  app.addHook('preClose', async () => services.eventStream.close());
  app.get(
    '/events',
    {
      schema: {
        summary: 'Stream the events of the files you may read (Server-Sent Events)',
        tags: ['files'],
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({ description: 'The id of the last event received: replay what came after it' }),
          ),
        }),
        // Browsers: a cross-origin preflight would have to allow the header; the query needs nothing.
        querystring: Type.Object({
          lastEventId: Type.Optional(Type.String({ description: 'As Last-Event-ID (the header wins)' })),
        }),
        response: {
          200: {
            description: 'The stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const token = readBearerToken(request) ?? '';
      // The barrier checked the token: this reads its expiry (a cached verification). A service
      // key has none: its stream lasts until the key is revoked.
      const { expiresAt } = request.serviceKeyPrincipal
        ? { expiresAt: undefined }
        : await services.identity.authenticate(request.project, token);
      const subscription = await services.eventStream.subscribe({
        projectId: request.project.id,
        lastEventId: single(request.headers['last-event-id']) ?? (request.query.lastEventId || undefined),
        authorize: toAuthorize(services, request),
        reader: {
          projectId: request.project.id,
          userId: request.principal.userId,
          clientAddress: toClientContext(request).clientAddress,
        },
        ...(expiresAt !== undefined && { expiresAt: new Date(expiresAt * 1000) }),
      });
      reply.hijack();
      const response = reply.raw;
      response.on('close', () => subscription.end('closed'));
      // A socket error also closes the response; it has no one to be reported to.
      response.on('error', () => subscription.end('closed'));
      response.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        // no-cache as SSE has it; no-store as every answer of the control plane has it.
        'cache-control': 'no-cache, no-store',
        // nginx would otherwise buffer the stream and hold events back.
        'x-accel-buffering': 'no',
      });
      response.write(`retry: ${reconnectMs}\n\n`);
      // The client may have left while the subscription was made: 'close' was before the listener.
      if (response.destroyed || response.socket?.destroyed !== false) subscription.end('closed');
      else subscription.start(new SseSink(response));
      return reply;
    },
  );
};

/**
 * The caller as of now: the token checked again (expiry, a disabled or deleted account, a new
 * role; a revoked service key), as the barriers did at connection. Any refusal ends the stream.
 */
function toAuthorize(services: Services, request: FastifyRequest): () => Promise<Principal | undefined> {
  const { project } = request;
  const token = readBearerToken(request) ?? '';
  const isServiceKey = request.serviceKeyPrincipal !== undefined;
  return async () => {
    try {
      if (isServiceKey) return await services.serviceKeys.authenticate(project, token);
      return (await services.identity.authenticate(project, token)).principal;
    } catch {
      return undefined;
    }
  };
}
