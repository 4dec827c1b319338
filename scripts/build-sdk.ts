/**
 * Builds @coffer/client (packages/client/src) into one ES module for browsers without a
 * bundler, served at /sdk/coffer-client.js: dist/sdk/coffer-client.js, and the same bytes as
 * coffer-client-<hash>.js (served with an immutable cache: its name changes with its content).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', 'sdk');

// esbuild is a devDependency: an install without them keeps the build it has (or serves none:
// /sdk/coffer-client.js answers 404 saying so) rather than failing the install.
const esbuild = await import('esbuild').catch(() => null);
if (!esbuild) {
  console.warn(
    existsSync(path.join(outdir, 'coffer-client.js'))
      ? 'sdk: esbuild is not installed (dev dependencies left out): keeping the build in dist/sdk'
      : 'sdk: esbuild is not installed (dev dependencies left out): /sdk/coffer-client.js will answer 404 until `npm install`',
  );
  process.exit(0);
}

const result = await esbuild.build({
  entryPoints: [path.join(root, 'packages', 'client', 'src', 'index.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  target: 'es2022',
  platform: 'neutral',
  // Readable: developers step through it in the browser's debugger.
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
});
const bytes = result.outputFiles[0]!.contents;
const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await writeFile(path.join(outdir, 'coffer-client.js'), bytes);
await writeFile(path.join(outdir, `coffer-client-${hash}.js`), bytes);
