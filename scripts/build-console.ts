/**
 * Builds the console (Preact + TSX under console/src) into dist/console with esbuild: hashed
 * asset names under assets/ (served with an immutable cache) and an index.html that links them.
 * No inline script or style: the console's Content-Security-Policy forbids both.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist', 'console');

// esbuild is a devDependency: an install without them (`npm ci --omit=dev`) keeps the build it
// has, or serves none (/console answers 503 saying so), rather than failing the install.
const esbuild = await import('esbuild').catch(() => null);
if (!esbuild) {
  console.warn(
    existsSync(path.join(outdir, 'index.html'))
      ? 'console: esbuild is not installed (dev dependencies left out): keeping the build in dist/console'
      : 'console: esbuild is not installed (dev dependencies left out): /console will answer 503 until `npm install` and `npm run console:build`',
  );
  process.exit(0);
}
const { build } = esbuild;

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(root, 'console', 'src', 'main.tsx')],
  outdir: path.join(outdir, 'assets'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
if (!script || !style)
  throw new Error(`console build produced ${outputs.join(', ')}: expected one .js and one .css`);
await mkdir(outdir, { recursive: true });
await writeFile(
  path.join(outdir, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coffer console</title>
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body><div id="app"></div></body>
</html>
`,
);
console.log(`console built into dist/console (${outputs.join(', ')})`);
