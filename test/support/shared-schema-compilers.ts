import AjvCompiler from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;

let compiledCount = 0;

/** How many serializers and validators this process compiled (a second server adds none). */
export const compiledSchemas = () => compiledCount;

/**
 * One compile per distinct schema in the process: `compile` for the options and shared schemas
 * of `key`, each result kept under its schema's JSON.
 */
function reusing<Route extends { schema?: unknown }, Compiled>(
  made: Map<string, { compile: (route: Route) => Compiled; built: Map<string, Compiled> }>,
  key: string,
  build: () => (route: Route) => Compiled,
  check: (route: Route) => void = () => {},
): (route: Route) => Compiled {
  let compiler = made.get(key);
  if (!compiler) {
    compiler = { compile: build(), built: new Map() };
    made.set(key, compiler);
  }
  const { compile, built } = compiler;
  return (route) => {
    check(route);
    const schemaKey = JSON.stringify(route.schema);
    let compiled = built.get(schemaKey);
    if (!compiled) {
      compiledCount++;
      compiled = compile(route);
      built.set(schemaKey, compiled);
    }
    return compiled;
  };
}

const serializers = new Map();

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled once per test process:
 * compiling them was over half of a test server's start (about 0.5 s of CPU each time), and a
 * file starts many servers whose routes have the same schemas. A serializer is a pure function
 * of its schema, the shared schemas and the options, so an equal set reuses it.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) =>
  reusing(serializers, JSON.stringify([externalSchemas, options]), () =>
    SerializerSelector()(externalSchemas, options),
  );

const validators = new Map();

/**
 * Fastify's own request validators (Ajv), likewise: the next cost of a server's start. With a
 * validator factory of its own Fastify passes a headers schema as it is, without lower-casing
 * its property names as it does by default; so a headers schema here must name them in lower
 * case already (every route's does: Node gives header names in lower case), or the test
 * server refuses to start rather than validate other than production does.
 */
export const sharedValidators = ((externalSchemas: unknown, options: unknown) =>
  reusing(
    validators,
    JSON.stringify([externalSchemas, options]),
    () => (AjvCompiler() as (...args: unknown[]) => (route: unknown) => unknown)(externalSchemas, options),
    (route: { schema?: unknown; httpPart?: string }) => {
      if (route.httpPart === 'headers' && namesInCapitals(route.schema))
        throw new Error('a headers schema names a header in capitals: Fastify would lower-case it');
    },
  )) as unknown as ValidatorFactory;

/** Whether an object schema's properties (or required names) are not all lower case. */
function namesInCapitals(schema: unknown): boolean {
  const { properties = {}, required = [] } = (schema ?? {}) as { properties?: object; required?: string[] };
  return [...Object.keys(properties), ...required].some((name) => name !== name.toLowerCase());
}
