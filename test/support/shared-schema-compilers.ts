import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvCompiler, { AjvReference } from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;

let compiledCount = 0;

/**
 * Where the run keeps compiled schemas' code (COFFER_TEST_SCHEMA_CACHE, a folder
 * scripts/run-tests.js makes for the run and removes after it): each test process would
 * otherwise compile the same few hundred serializers and validators again, about half a second
 * of CPU before its first server answers. Unset (a file run alone), each process compiles its own.
 */
const codeCache = process.env.COFFER_TEST_SCHEMA_CACHE;
const requireFromHere = createRequire(import.meta.url);
/** Ajv's writer of a compiled validator's code as a module (what @fastify/ajv-compiler's standalone mode uses). */
const standaloneCode: (ajv: unknown, validate: unknown) => string =
  requireFromHere('ajv/dist/standalone').default;
/** Where @fastify/ajv-compiler's compile function keeps its Ajv instance. */
const ajvOf = (compiler: object) =>
  (compiler as Record<symbol, { ajv: unknown }>)[AjvReference as unknown as symbol]!.ajv;

/**
 * The function of a compiled schema's standalone code (a CommonJS module body, as Ajv's and
 * fast-json-stringify's standalone modes write it), from the run's folder when a process stored
 * it there, else from `toCode()`, stored for the next process. Named by a hash of everything
 * the code depends on: the compiler, its options and shared schemas, and the schema.
 */
function fromCode<Compiled>(key: string, toCode: () => string): Compiled {
  const file = codeCache && join(codeCache, `${createHash('sha256').update(key).digest('hex')}.js`);
  let code: string | undefined;
  if (file) {
    try {
      code = readFileSync(file, 'utf8');
    } catch {}
  }
  if (code === undefined) {
    code = toCode();
    if (file) {
      // Written whole, then renamed: a process beside this one reads the old name or the whole code.
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
  }
  const module = { exports: {} as { default?: unknown } };
  new Function('require', 'module', 'exports', code)(requireFromHere, module, module.exports);
  return module.exports as Compiled;
}

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
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compileKey = JSON.stringify([externalSchemas, options]);
  return reusing(serializers, compileKey, () => {
    const toCode = SerializerSelector()(externalSchemas, { ...options, mode: 'standalone' }) as unknown as (
      route: unknown,
    ) => string;
    return (route: { schema?: unknown }) =>
      fromCode(`serializer ${compileKey} ${JSON.stringify(route.schema)}`, () => toCode(route));
  });
};

const validators = new Map();

/**
 * Fastify's own request validators (Ajv), likewise: the next cost of a server's start. With a
 * validator factory of its own Fastify passes a headers schema as it is, without lower-casing
 * its property names as it does by default; so a headers schema here must name them in lower
 * case already (every route's does: Node gives header names in lower case), or the test
 * server refuses to start rather than validate other than production does.
 */
export const sharedValidators = ((externalSchemas: unknown, options: { customOptions?: object }) => {
  const compileKey = JSON.stringify([externalSchemas, options]);
  return reusing(
    validators,
    compileKey,
    () => {
      // Ajv keeps each validator's source only when asked to: standaloneCode writes it out.
      const withSource = { ...options, customOptions: { ...options.customOptions, code: { source: true } } };
      const compiler = (AjvCompiler() as (...args: unknown[]) => (route: unknown) => unknown)(
        externalSchemas,
        withSource,
      );
      return (route: { schema?: unknown }) =>
        fromCode(`validator ${compileKey} ${JSON.stringify(route.schema)}`, () =>
          standaloneCode(ajvOf(compiler), compiler(route)),
        );
    },
    (route: { schema?: unknown; httpPart?: string }) => {
      if (route.httpPart === 'headers' && namesInCapitals(route.schema))
        throw new Error('a headers schema names a header in capitals: Fastify would lower-case it');
    },
  );
}) as unknown as ValidatorFactory;

/** Whether an object schema's properties (or required names) are not all lower case. */
function namesInCapitals(schema: unknown): boolean {
  const { properties = {}, required = [] } = (schema ?? {}) as { properties?: object; required?: string[] };
  return [...Object.keys(properties), ...required].some((name) => name !== name.toLowerCase());
}
