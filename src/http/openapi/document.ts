import type { SwaggerOptions } from '@fastify/swagger';
import { type ErrorCode, errorCodes } from '../../errors/error-codes.ts';
import { ErrorSchema } from '../wire/schemas.ts';
import { assertAccessOfRoute, barrierErrors, security, securitySchemes } from './access-security.ts';
import { binaryContent, contentRangeHeader, toHeaderSchemas } from './content-shapes.ts';
import { toLinkQuery } from './link-query.ts';
import type { Access, Operation } from './operation.ts';
import { operations } from './operations.ts';

/** Errors any operation may answer, whatever it does. */
const everyRequest: ErrorCode[] = ['HEADERS_TOO_LARGE', 'INTERNAL', 'UNAVAILABLE'];

/** A JSON body can also be too large, of another type, or too slow. */
const bodyErrors: ErrorCode[] = [
  'VALIDATION_FAILED',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_TIMEOUT',
];

/** Query parameters the routes validate as digit strings (no coercion) but that are integers on the wire. */
const integerQuery: Record<string, { minimum: number; maximum?: number; default?: number }> = {
  pageSize: { minimum: 1, maximum: 100, default: 20 },
  pageNumber: { minimum: 1, default: 1 },
  expiresInSeconds: { minimum: 1, maximum: 604800, default: 900 },
};

type RouteSchema = Record<string, unknown> & {
  response?: Record<string, unknown>;
  querystring?: { properties?: Record<string, Record<string, unknown>> };
  body?: unknown;
};

/** onRoute: a route that would be shown but is not in the table stops the start, naming it. */
export function assertDocumented(route: {
  method: string | string[];
  url: string;
  schema?: unknown;
  config?: unknown;
}): void {
  // A lone HEAD is the one Fastify adds beside each GET (the document leaves those out).
  if (route.method === 'HEAD') return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
  for (const method of methods) {
    const operation = operations[toKey(method, route.url)];
    if (operation) assertAccessOfRoute(`${method} ${route.url}`, operation.access, route);
    // A link route of no known kind stops the start too (link-query.ts throws, naming it).
    if (operation?.access === 'link') toLinkQuery(method, route.url);
    if (method === 'OPTIONS' || operation || hidden) continue;
    throw new Error(
      `${method} ${route.url} is not in src/http/openapi/operations.ts: add it, so the document shows it`,
    );
  }
}

/** The key of the operations table for a route. */
function toKey(method: string, url: string): string {
  return `${method} ${url.length > 1 ? url.replace(/\/$/, '') : url}`;
}

/**
 * @fastify/swagger's per-route transform: names the operation, states its security and every
 * status it may answer, and documents the data plane and the probes (hidden in their route
 * files, which keep their schemas for validation only).
 */
export function documentRoute({
  schema,
  url,
  route,
}: {
  schema: unknown;
  url: string;
  route: { method: string | string[] };
}) {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const method = methods.find((candidate) => candidate !== 'OPTIONS') ?? methods[0]!;
  const operation = operations[toKey(method, url)];
  const routeSchema = (schema ?? {}) as RouteSchema;
  // assertDocumented stopped the start for any shown route missing here: the rest stay hidden.
  if (!operation) return { schema: { ...routeSchema, hide: true }, url };
  return { schema: describeOperation(routeSchema, operation, method, url), url };
}

function describeOperation(schema: RouteSchema, operation: Operation, method: string, url: string) {
  const { hide: _hidden, ...shown } = schema;
  const described: RouteSchema = {
    ...shown,
    operationId: operation.operationId,
    summary: shown.summary ?? operation.summary,
    security: security[operation.access],
    response: toResponses(schema, operation, method),
  };
  // The route's own description, where it has one, says more than the table's.
  if (!shown.description && operation.description) described.description = operation.description;
  if (operation.requestBody) described.body = { content: operation.requestBody.content };
  if (operation.access === 'link')
    described.querystring = toLinkQuery(method, url) as RouteSchema['querystring'];
  else if (schema.querystring?.properties) described.querystring = toIntegerQuery(schema.querystring);
  if (!described.tags) described.tags = [toTag(operation.access)];
  return described;
}

function toTag(access: Access): string {
  if (access === 'link') return 'content';
  if (access === 'public' || access === 'metrics') return 'operations';
  return 'api';
}

function toIntegerQuery(querystring: NonNullable<RouteSchema['querystring']>) {
  const properties = Object.fromEntries(
    Object.entries(querystring.properties ?? {}).map(([name, property]) => {
      const integer = integerQuery[name];
      return [name, integer ? { description: property.description, type: 'integer', ...integer } : property];
    }),
  );
  return { ...querystring, properties };
}

function toResponses(schema: RouteSchema, operation: Operation, method: string): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const success = operation.success ?? { status: 200 };
  const declared = (schema.response?.[String(success.status)] ?? success.schema) as
    | Record<string, unknown>
    | undefined;
  const headers = success.headers ? { headers: toHeaderSchemas(success.headers) } : {};
  if (success.status === 204)
    responses['204'] = { type: 'null', description: success.description ?? 'Done', ...headers };
  else if (success.binary) {
    responses[String(success.status)] = {
      description: success.description ?? 'The bytes',
      ...headers,
      ...binaryContent,
    };
    if (success.ranges)
      responses['206'] = {
        description: 'The part a Range header asked for',
        headers: toHeaderSchemas({ ...success.headers, 'Content-Range': contentRangeHeader }),
        ...binaryContent,
      };
  } else if (declared)
    responses[String(success.status)] = {
      ...declared,
      ...(success.component ? { title: success.component } : {}),
      ...(success.description ? { description: success.description } : {}),
      ...headers,
    };
  else responses[String(success.status)] = { description: success.description ?? 'OK', ...headers };
  const codes = new Set<ErrorCode>([
    ...everyRequest,
    ...barrierErrors[operation.access],
    ...operation.errors,
  ]);
  if (schema.body !== undefined || method === 'PUT') for (const code of bodyErrors) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = operation.errorStatuses?.[code] ?? errorCodes[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = { ...ErrorSchema, description: `Error: ${statusCodes.sort().join(', ')}` };
  }
  return responses;
}

/**
 * A route of several methods (GET and HEAD of a download) is one transform, so each of its
 * operations got the first method's name and answers: each takes its own name from the table, a
 * HEAD its own description too, and a HEAD's answers carry no body. @fastify/swagger drops a
 * streamed body's description: it is put back here.
 */
function nameOtherMethods(document: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [path, byMethod] of Object.entries(paths)) {
    const url = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, operation] of Object.entries(byMethod)) {
      const entry = operations[toKey(method.toUpperCase(), url)];
      // The methods of one route share one object: each gets a copy of its own.
      if (!entry) continue;
      const named: Record<string, unknown> = {
        ...operation,
        operationId: entry.operationId,
        summary: entry.summary ?? operation.summary,
      };
      if (method === 'head' && entry.description) named.description = entry.description;
      if (entry.requestBody)
        named.requestBody = {
          ...(operation.requestBody as object),
          description: entry.requestBody.description,
          required: entry.requestBody.required ?? true,
        };
      if (method === 'head')
        named.responses = withoutBodies(
          operation.responses as Record<string, Record<string, unknown>>,
          entry.success?.description,
        );
      byMethod[method] = named;
    }
  }
}

/** A HEAD's answers: the GET's, without their bodies, its own success described. */
function withoutBodies(responses: Record<string, Record<string, unknown>>, description: string | undefined) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, { content: _body, ...response }]) => [
      status,
      status === '200' && description ? { ...response, description } : response,
    ]),
  );
}

/**
 * Moves every schema with a title (schemas.ts gives them one; operations.ts names the answers)
 * into components.schemas and references it, so clients generated from the document get one
 * type per shape instead of an inline copy per operation.
 */
function hoistNamedSchemas(document: Record<string, unknown>): void {
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  const named = components.schemas ?? {};
  components.schemas = named;
  document.components = components;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const object = node as Record<string, unknown>;
    const walked = Object.fromEntries(Object.entries(object).map(([key, value]) => [key, visit(value)]));
    const title = object.title;
    if (typeof title !== 'string' || !/^[A-Z][A-Za-z]+$/.test(title)) return walked;
    const { description, ...body } = walked;
    named[title] ??= { ...body, title };
    const reference = { $ref: `#/components/schemas/${title}` };
    return typeof description === 'string' ? { ...reference, description } : reference;
  };
  document.paths = visit(document.paths);
}

/**
 * The @fastify/swagger options: OpenAPI 3.1, the servers this node is reached at, named
 * components for the shared shapes, the error catalogue on the Error schema.
 */
export function documentOptions(publicUrl: () => string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Coffer',
        version: '1',
        description:
          'File storage with signed links and per-file ACLs. Every error answers the Error shape; ' +
          '`code` is stable (a request to no route answers NOT_FOUND, a method a route does not take METHOD_NOT_ALLOWED).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      components: { securitySchemes } as never,
      tags: [
        { name: 'api', description: 'The JSON API: app credentials, then a user token' },
        { name: 'auth', description: 'Accounts and sessions' },
        { name: 'files', description: 'Files, their ACLs and links' },
        { name: 'users', description: 'Users' },
        { name: 'content', description: 'Bytes, through signed links (no app credentials, no token)' },
        { name: 'operations', description: 'Probes and metrics' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `Schema${index}`),
    },
    transform: documentRoute as never,
    transformObject: (documents) => {
      const document = (documents as { openapiObject: Record<string, unknown> }).openapiObject;
      document.servers = [{ url: publicUrl(), description: 'this Coffer' }];
      nameOtherMethods(document);
      hoistNamedSchemas(document);
      const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
      schemas.Error = {
        ...ErrorSchema,
        title: 'Error',
        properties: {
          ...ErrorSchema.properties,
          code: { type: 'string', enum: Object.keys(errorCodes), description: 'stable; see docs/errors.md' },
        },
      };
      return document as never;
    },
  };
}
