import './http/fastify-types.ts';
import { randomUUID } from 'node:crypto';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyRequest, LogController } from 'fastify';
import { isPrettyLog, prettyLogStream } from './config/log-format.ts';
import { accountPages } from './http/account-pages/account-pages.ts';
import { consolePlane } from './http/console/console-plane.ts';
import { serveConsoleApp } from './http/console/serve-console-app.ts';
import { controlPlane } from './http/control/control-plane.ts';
import { health } from './http/control/ops/health.ts';
import { homePage } from './http/control/ops/home-page.ts';
import { metrics } from './http/control/ops/metrics.ts';
import { dataPlane } from './http/data/data-plane.ts';
import { oauthPopupRoutes } from './http/oauth/oauth-popup-routes.ts';
import { assertDocumented, documentOptions } from './http/openapi/document.ts';
import { referencePageOptions } from './http/openapi/reference-page.ts';
import { installBodyDeadline } from './http/plugins/body-deadline.ts';
import {
  answerClientError,
  answerFrameworkError,
  ignoreUnknownExpectations,
  installHostRequirement,
  trackEarlyAnswers,
} from './http/plugins/connection-errors.ts';
import { installErrorHandler } from './http/plugins/error-handler.ts';
import { installHttpsBarrier } from './http/plugins/https-barrier.ts';
import { installMethodNotAllowed } from './http/plugins/method-not-allowed.ts';
import { toProxyTrust } from './http/plugins/proxy-trust.ts';
import { installRequestMetrics } from './http/plugins/request-metrics.ts';
import { installResponseHardening } from './http/plugins/response-hardening.ts';
import { installWritesShared } from './http/plugins/writes-shared.ts';
import { reusingSchemaCompilers, type ValidatorFactory } from './http/schema-compilers.ts';
import { serveSdkModule } from './http/sdk/serve-sdk-module.ts';
import { ErrorSchema, FileRecordSchema } from './http/wire/schemas.ts';
import type { Services } from './services.ts';

export type AppOptions = {
  /** PEM certificate and key: serve HTTPS directly. */
  tls?: { cert: Buffer; key: Buffer };
  /** A pino logger option; tests pass false. */
  logger?: boolean | { level: string };
  /**
   * Build the response serializers and request validators (Fastify's own compilers, each
   * distinct schema once, unless given): tests pass factories that also reuse the code other
   * test processes compiled.
   */
  schemaCompilers?: { buildSerializer: SerializerFactory; buildValidator: ValidatorFactory };
};

/** Builds the Fastify application over the services. It never listens: main.ts and tests do. */
export async function buildApp(services: Services, options: AppOptions = {}) {
  const { config } = services;
  // Node enforces the header and request timeouts on a sweep; the default sweep (30 s) would
  // let a slow client hold a connection well past a short headers timeout.
  // Node's own answer to a request without Host has an empty body: installHostRequirement
  // answers it in the error shape instead.
  const serverOptions = {
    connectionsCheckingInterval: Math.min(2000, config.headersTimeoutSeconds * 1000),
    requireHostHeader: false,
  };
  const app = Fastify({
    ...(options.tls ? { https: { ...options.tls, ...serverOptions } } : { http: serverOptions }),
    logger: toLoggerOptions(options.logger ?? { level: config.logLevel }, isPrettyLog(config.logFormat)),
    genReqId: () => randomUUID(),
    // One access-log line per request (below) instead of Fastify's two: logging is a visible
    // share of a small request's cost.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: toProxyTrust(config.trustProxy),
    bodyLimit: config.jsonBodyLimitBytes,
    connectionTimeout: config.idleTimeoutSeconds * 1000,
    // The upload deadline; every other body has bodyTimeoutSeconds (installBodyDeadline).
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: 5000,
    // While draining, a request that still arrives on an open connection is served, with
    // Connection: close, instead of Fastify's own 503 outside our error shape: the worker
    // waits for it anyway, and the client's next request goes to another process.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    // Strict input: no type coercion (a number is not a filePath), no silent defaults
    // beyond those the schemas declare.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: options.schemaCompilers ?? reusingSchemaCompilers() },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = config.headersTimeoutSeconds * 1000;
  ignoreUnknownExpectations(app.server);

  await app.register(
    swagger,
    documentOptions(() => services.publicUrl.value),
  );
  app.addHook('onRoute', assertDocumented);
  app.addSchema({ ...ErrorSchema, $id: 'Error' });
  app.addSchema(FileRecordSchema);
  services.reportAccountMailErrorsTo(app.log);
  installResponseHardening(app);
  installErrorHandler(app, { jsonBodyLimitBytes: config.jsonBodyLimitBytes });
  installHostRequirement(app);
  installBodyDeadline(app, { timeoutSeconds: config.bodyTimeoutSeconds });
  trackEarlyAnswers(app);
  installRequestMetrics(app, services.metrics);
  installWritesShared(app, services.database.writes, config.workers);
  if (options.logger !== false) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    });
  }
  installHttpsBarrier(app, { trustProxy: config.trustProxy !== false });
  // Before any route: it learns them as they are registered.
  installMethodNotAllowed(app);

  homePage(app, services);
  serveSdkModule(app, services);
  health(app, services);
  metrics(app, services);
  // The interactive reference at /docs, the document at /docs/json (and /docs/yaml, /openapi.json).
  await app.register(swaggerUi, referencePageOptions);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(async (scope) => controlPlane(scope, services), { prefix: '/api/v1' });
  // Outside the control plane's barriers: a popup's navigation sends no headers (issue 37).
  await app.register(async (scope) => oauthPopupRoutes(scope, services), { prefix: '/api/v1' });
  await app.register(async (scope) => dataPlane(scope, services), { prefix: '/blob/v1' });
  await app.register(async (scope) => consolePlane(scope, services), { prefix: '/console/api' });
  await app.register(async (scope) => serveConsoleApp(scope, services));
  await app.register(async (scope) => accountPages(scope, services));
  return app;
}

// security: link signatures, tokens and secrets never reach the logs. Fastify logs the full URL
// by default, so the request serializer drops the query of every gateway link and, elsewhere,
// masks every query value but those of the API's own harmless parameters: a client that puts a
// secret in a URL under any name (`?sb-app-secret=`) must not have it logged.
function toLoggerOptions(logger: boolean | { level: string }, pretty: boolean) {
  if (logger === false) return false;
  const level = logger === true ? 'info' : logger.level;
  return {
    level,
    ...(pretty ? { stream: prettyLogStream() } : {}),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}

/** Query parameters of the API that carry no secret; every other value is masked. */
const loggableParameters = new Set(['expiresInSeconds', 'pageSize', 'pageNumber', 'filePath']);

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  if (url.startsWith('/blob/')) return `${url.slice(0, query)}?[redacted]`;
  const parameters = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      if (loggableParameters.has(name)) return pair;
      // A name that does not look like one may be a secret itself.
      return /^[A-Za-z][\w.-]{0,31}$/.test(name) ? `${name}=[redacted]` : '[redacted]';
    });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}
