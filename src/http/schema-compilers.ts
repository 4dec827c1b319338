import AjvCompiler from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

export type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type Compile<Route, Compiled> = (route: Route) => Compiled;

/**
 * A compile that builds each distinct schema once: `build()` makes the compile for the options
 * and shared schemas named by `key` (one per key in `made`), and its results are kept under
 * each schema's JSON. Fastify compiles a serializer per route and status code and a validator
 * per route and request part: 528 and 251 for Coffer's routes, of which 46 and 102 differ (the
 * error shape alone is most of them), and compiling was over half of a worker's start (issue 44,
 * item 7). Both compilers' results are pure functions of the schema, the shared schemas and the
 * options, so an equal schema may share one. `check` sees every route first.
 */
export function reusingEqualSchemas<Route extends { schema?: unknown }, Compiled>(
  made: Map<string, Compile<Route, Compiled>>,
  key: string,
  build: () => Compile<Route, Compiled>,
  check: (route: Route) => void = () => {},
): Compile<Route, Compiled> {
  const existing = made.get(key);
  if (existing) return existing;
  const compile = build();
  const built = new Map<string, Compiled>();
  const reusing = (route: Route) => {
    check(route);
    const schemaKey = JSON.stringify(route.schema);
    let compiled = built.get(schemaKey);
    if (!compiled) {
      compiled = compile(route);
      built.set(schemaKey, compiled);
    }
    return compiled;
  };
  made.set(key, reusing);
  return reusing;
}

/**
 * With a validator factory of its own Fastify passes a headers schema as it is, without
 * lower-casing its property names as it does by default: so every headers schema must name
 * them in lower case already (Node gives header names in lower case), or the app refuses to
 * build rather than validate headers it would never see.
 */
export function assertLowerCaseHeaders(route: { schema?: unknown; httpPart?: string }): void {
  if (route.httpPart !== 'headers') return;
  const { properties = {}, required = [] } = (route.schema ?? {}) as {
    properties?: object;
    required?: string[];
  };
  if ([...Object.keys(properties), ...required].some((name) => name !== name.toLowerCase()))
    throw new Error('a headers schema names a header in capitals: Fastify would not lower-case it');
}

/** Fastify's own compilers (fast-json-stringify and Ajv), each distinct schema compiled once per process. */
export function reusingSchemaCompilers(): {
  buildSerializer: SerializerFactory;
  buildValidator: ValidatorFactory;
} {
  const serializers = new Map();
  const selectSerializer = SerializerSelector();
  const validators = new Map();
  const selectValidator = AjvCompiler();
  return {
    buildSerializer: (externalSchemas, options) =>
      reusingEqualSchemas(serializers, JSON.stringify([externalSchemas, options]), () =>
        selectSerializer(externalSchemas, options),
      ),
    buildValidator: ((externalSchemas: unknown, options: Parameters<ValidatorFactory>[1]) =>
      reusingEqualSchemas(
        validators,
        JSON.stringify([externalSchemas, options]),
        () =>
          (selectValidator as (...args: unknown[]) => Compile<{ schema?: unknown }, unknown>)(
            externalSchemas,
            options,
          ),
        assertLowerCaseHeaders,
      )) as unknown as ValidatorFactory,
  };
}
