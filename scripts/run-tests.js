// Runs every test file (unit tests beside the code, cross-module tests in test/) on node:test.
// Kept in JS so that it runs before anything is type-checked.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const files = [...globSync('src/**/*.test.ts'), ...globSync('test/**/*.test.ts')].sort();
const args = ['--test', '--test-concurrency=2', '--test-timeout=120000', ...process.argv.slice(2), ...files];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
