#!/usr/bin/env node
// The `coffer` command. Coffer needs Node ≥ 24.7 (node:sqlite, crypto.argon2, type stripping);
// when started by an older system Node, it re-runs itself on the Node 24 the project pins
// as a devDependency (DESIGN §2), so `npx coffer` works on any machine after `npm ci`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 7)) {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`coffer needs Node.js 24.7 or newer (this is ${process.version}); run npm install first.`);
    process.exit(1);
  }
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  // Stopping this launcher stops the server it started.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.removeAllListeners('warning'); // Node's notice that type stripping is experimental, on every start
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2), process.env);
}
