import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serializer = ReturnType<ReturnType<SerializerFactory>>;

let compiledCount = 0;

/** How many serializers this process has compiled (its tests check that a second server adds none). */
export const compiledSerializers = () => compiledCount;

const compilers = new Map<
  string,
  { compile: ReturnType<SerializerFactory>; built: Map<string, Serializer> }
>();

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled once per test process:
 * compiling them was over half of a test server's start (about 0.5 s of CPU each time), and a
 * file starts many servers whose routes have the same schemas. A serializer is a pure function
 * of its schema, the shared schemas and the options, so an equal set reuses it.
 */
export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const key = JSON.stringify([externalSchemas, options]);
  let compiler = compilers.get(key);
  if (!compiler) {
    compiler = { compile: SerializerSelector()(externalSchemas, options), built: new Map() };
    compilers.set(key, compiler);
  }
  const { compile, built } = compiler;
  return (route) => {
    const schemaKey = JSON.stringify(route.schema);
    let serializer = built.get(schemaKey);
    if (!serializer) {
      compiledCount++;
      serializer = compile(route);
      built.set(schemaKey, serializer);
    }
    return serializer;
  };
};
