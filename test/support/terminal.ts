import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

/** The `coffer` command's script: the run's bundle of src/ when there is one (test/support/coffer-process.ts). */
export const cofferBin =
  process.env.COFFER_TEST_BIN ?? path.resolve(import.meta.dirname, '../../bin/coffer.js');

/** util-linux `script`, which gives a command a pseudo-terminal, is installed. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs `coffer` on a terminal (a pseudo-terminal from `script`), typing each answer once its
 * prompt (each a different one) has appeared; answers the exit status and everything the
 * terminal showed (stdout and stderr alike, as on a screen).
 */
export async function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  answers: [string, string][] = [],
) {
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, cofferBin, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...env } });
  let screen = '';
  const pending = [...answers];
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    while (pending.length > 0 && screen.includes(pending[0]![0]))
      child.stdin.write(`${pending.shift()![1]}\r`);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, screen };
}
