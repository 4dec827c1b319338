import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Services } from '../services.ts';

/** A Fastify instance typed by TypeBox schemas, as every route registers on. */
export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Each route file exports one of these. */
export type RouteRegistrar = (app: TypedApp, services: Services) => void;

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, { $ref: 'Error#' }]));
