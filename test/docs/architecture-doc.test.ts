import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { it } from 'node:test';

// docs/architecture.md draws the layers of src/ as a table (which folder may import which);
// this test reads that table and the imports of every module, so the picture cannot drift
// from the code: a new arrow must be drawn before it is written.

const root = resolve(import.meta.dirname, '../..');
const src = resolve(root, 'src');
const doc = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');

/** The layer a module belongs to: its top folder under src/, or its own name for a top-level file. */
const toLayer = (file: string) => {
  const [first = '', ...rest] = relative(src, file).split('/');
  return rest.length ? first : first.replace(/\.tsx?$/, '');
};

/** Rows of the layer table: `| \`layer\` | what it holds | \`a\`, \`b\` |`. */
const drawnLayers = new Map(
  [...doc.matchAll(/^\| `([a-z-]+)(?:\/|\.ts)?` \| [^|]+ \| ([^|]*) \|$/gm)].map(([, layer, mayImport]) => [
    layer as string,
    new Set([...(mayImport as string).matchAll(/`([a-z./-]+?)(?:\/|\.ts)?`/g)].map(([, name]) => name)),
  ]),
);

/** The packages the domain must never import (its arrow points inwards only). */
const frameworkPackages =
  /^(fastify|@fastify\/|kysely|pg|@aws-sdk\/|node:fs|node:child_process|node:net|node:http)/;

const modules = globSync('src/**/*.{ts,tsx}', { cwd: root })
  .filter((file) => !file.endsWith('.test.ts'))
  .map((file) => resolve(root, file));

/** Every import and re-export of a module, static or dynamic. */
const importsOf = (file: string) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm,
    ),
  ].map((match) => (match[1] ?? match[2] ?? match[3]) as string);

it('docs/architecture.md draws a row for every layer of src/', () => {
  const layers = new Set(modules.map(toLayer));
  assert.deepEqual([...drawnLayers.keys()].sort(), [...layers].sort());
});

it('every import between layers is an arrow that docs/architecture.md draws', () => {
  const undrawn: string[] = [];
  for (const file of modules) {
    const from = toLayer(file);
    for (const specifier of importsOf(file).filter((name) => name.startsWith('.'))) {
      const target = resolve(dirname(file), specifier);
      const to = target.startsWith(`${src}/`) ? toLayer(target) : relative(root, target).split('/')[0];
      if (to !== from && !drawnLayers.get(from)?.has(to as string))
        undrawn.push(`${relative(root, file)} → ${specifier}`);
    }
  }
  assert.deepEqual(undrawn, []);
});

it('the domain imports no framework, database driver, file system or network', () => {
  const offending = modules
    .filter((file) => toLayer(file) === 'domain')
    .flatMap((file) => importsOf(file).map((name) => `${relative(root, file)} → ${name}`))
    .filter((line) => frameworkPackages.test(line.split(' → ')[1] as string));
  assert.deepEqual(offending, []);
});
