import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvCompiler, { AjvReference } from '@fastify/ajv-compiler';
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import {
  assertLowerCaseHeaders,
  reusingEqualSchemas,
  type ValidatorFactory,
} from '../../src/http/schema-compilers.ts';

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

/** `compile`, counted. */
function counted<Route, Compiled>(compile: (route: Route) => Compiled): (route: Route) => Compiled {
  return (route) => {
    compiledCount++;
    return compile(route);
  };
}

const serializers = new Map();

/**
 * Fastify's own response serializers (fast-json-stringify), each distinct schema compiled once
 * per test process, as a production app does per process (src/http/schema-compilers.ts), and
 * its code kept for the run: a file starts many servers whose routes have the same schemas.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compileKey = JSON.stringify([externalSchemas, options]);
  return reusingEqualSchemas(serializers, compileKey, () => {
    const toCode = SerializerSelector()(externalSchemas, { ...options, mode: 'standalone' }) as unknown as (
      route: unknown,
    ) => string;
    return counted((route: { schema?: unknown }) =>
      fromCode(`serializer ${compileKey} ${JSON.stringify(route.schema)}`, () => toCode(route)),
    );
  });
};

const validators = new Map();

/** Fastify's own request validators (Ajv), likewise; headers schemas in lower case, as in production. */
export const sharedValidators = ((externalSchemas: unknown, options: { customOptions?: object }) => {
  const compileKey = JSON.stringify([externalSchemas, options]);
  return reusingEqualSchemas(
    validators,
    compileKey,
    () => {
      // Ajv keeps each validator's source only when asked to: standaloneCode writes it out.
      const withSource = { ...options, customOptions: { ...options.customOptions, code: { source: true } } };
      const compiler = (AjvCompiler() as (...args: unknown[]) => (route: unknown) => unknown)(
        externalSchemas,
        withSource,
      );
      return counted((route: { schema?: unknown }) =>
        fromCode(`validator ${compileKey} ${JSON.stringify(route.schema)}`, () =>
          standaloneCode(ajvOf(compiler), compiler(route)),
        ),
      );
    },
    assertLowerCaseHeaders,
  );
}) as unknown as ValidatorFactory;
