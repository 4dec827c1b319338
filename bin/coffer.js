#!/usr/bin/env node
// The `coffer` command. Coffer needs Node ≥ 24.7 (node:sqlite, crypto.argon2, type stripping);
// when started by an older system Node, it re-runs itself on the Node 24 the project pins
// as a devDependency (DESIGN §2), so `npx coffer` works on any machine after `npm ci`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const [major, minor] = process.versions.node.split('.').map(Number);
// `coffer --version` answers at once, on any Node: loading the CLI (and re-running on the pinned
// Node) would cost a second or more for one line. The same answer as main.ts gives.
const versionOnly = args.filter((arg) => arg !== '--json');
if (versionOnly.length === 1 && ['--version', 'version'].includes(versionOnly[0])) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  console.log(args.includes('--json') ? JSON.stringify({ version }) : `coffer ${version}`);
} else if (major < 24 || (major === 24 && minor < 7)) {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    // One line, and the only word on it: package.json declares no `engines`, so that npm and
    // npx print no EBADENGINE block before it (docs/decisions.md). In the repository the pinned
    // Node comes with `npm install` (a devDependency); an installed package has none.
    const installed = fileURLToPath(import.meta.url)
      .split(sep)
      .includes('node_modules');
    const remedy = installed
      ? 'install Node.js 24 (https://nodejs.org)'
      : 'npm install fetches it into node_modules';
    console.error(
      `coffer needs Node.js 24.7 or newer; this is ${process.version} (${process.execPath}): ${remedy}`,
    );
    process.exit(1);
  }
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
  });
  // Stopping this launcher stops the server it started.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.removeAllListeners('warning'); // Node's notice that type stripping is experimental, on every start
  // Installed (under node_modules) Node strips no types: the package carries src/ compiled into
  // lib/ (scripts/build-package.ts, run by npm pack). In the repository, src/ runs as it is.
  const installed = fileURLToPath(import.meta.url)
    .split(sep)
    .includes('node_modules');
  // A command loads most of the server's modules; Node's compile cache (V8's code for each, kept
  // beside the package) halves that on every call after the first. Where the folder cannot be
  // written (a read-only install or image), Node goes on without it.
  module.enableCompileCache?.(
    fileURLToPath(new URL('../node_modules/.cache/coffer-compile', import.meta.url)),
  );
  const { main } = await import(installed ? '../lib/cli/main.js' : '../src/cli/main.ts');
  process.exitCode = await main(args, process.env);
}
