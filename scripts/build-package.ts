/**
 * Compiles src/ into lib/ for the packed package (`npm pack`, `npm install -g`): Node strips
 * types from .ts files everywhere but under node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_
 * STRIPPING), so an installed Coffer runs JavaScript. Each module is transformed on its own
 * (esbuild, types removed, nothing bundled) and its relative specifiers ending in `.ts`
 * (imports, dynamic imports, `new URL('./worker.ts', import.meta.url)`) end in `.js`. lib/
 * mirrors src/ at the same depth, so paths a module resolves from its own folder (the built
 * console and SDK in dist/, package.json) are the same. bin/coffer.js runs lib/ when it is
 * itself under node_modules, src/ otherwise. Run by `prepack`; lib/ is not committed.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transform } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'lib');
/**
 * What is compiled, and where: src/ into lib/, and the client's sources the CLI imports
 * (packages/client/src) into lib/client-package/, their specifiers pointed there.
 */
const trees = [
  { from: path.join(root, 'src'), to: outDir },
  { from: path.join(root, 'packages', 'client', 'src'), to: path.join(outDir, 'client-package') },
];

/** A relative specifier ending in .ts, where a module names another: `from '…'`, `import '…'`, `import('…')`, `new URL('…'`. */
const relativeTsSpecifier =
  /((?:\bfrom|\bimport\s*\(|\bimport|\bnew URL\()\s*['"])(\.{1,2}\/[^'"\n]+)\.ts(['"])/g;

/** Where a source file's compiled module goes. */
function toOutputFile(file: string): string {
  const tree = trees.find((candidate) => file.startsWith(`${candidate.from}${path.sep}`));
  if (!tree) throw new Error(`${file} is in no compiled tree`);
  return path.join(tree.to, path.relative(tree.from, file)).replace(/\.ts$/, '.js');
}

/** The module's code with each relative `.ts` specifier naming the compiled module, relative to `outputFile`. */
export function toJsSpecifiers(code: string, sourceFile: string, outputFile: string): string {
  return code.replace(relativeTsSpecifier, (_match, head: string, specifier: string, quote: string) => {
    const target = toOutputFile(path.resolve(path.dirname(sourceFile), `${specifier}.ts`));
    let relative = path.relative(path.dirname(outputFile), target).split(path.sep).join('/');
    if (!relative.startsWith('.')) relative = `./${relative}`;
    return `${head}${relative}${quote}`;
  });
}

async function listModules(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

if (import.meta.main) {
  await rm(outDir, { recursive: true, force: true });
  const modules = (await Promise.all(trees.map((tree) => listModules(tree.from)))).flat();
  for (const file of modules) {
    const { code } = await transform(await readFile(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node24',
      sourcefile: path.relative(root, file),
    });
    const target = toOutputFile(file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, toJsSpecifiers(code, file, target));
  }
  console.log(`package: ${modules.length} modules of src/ and packages/client/src/ compiled into lib/`);
}
