import { read } from 'read';
import { ConfigError } from '../config/config-error.ts';

/** More than any password the policy takes (1024 characters) or a provider's secret: what stdin may hold. */
const maxStdinBytes = 64 * 1024;

/**
 * The password of `user create` / `user reset-password`, never only from the command line
 * (where other local users see it in the process list): from `--password-stdin` (one line,
 * its line break dropped), else a prompt without echo, asked twice, when stdin is a terminal.
 * `--password P` stays for `user create`, as its documented command line has it.
 */
export async function readPassword(options: {
  flag?: string;
  fromStdin: boolean;
  /** A login asks once for an existing password; a new one is asked twice. */
  existing?: boolean;
}): Promise<string> {
  if (options.flag !== undefined && options.fromStdin)
    throw new ConfigError('--password and --password-stdin exclude each other');
  if (options.flag !== undefined) return options.flag;
  if (options.fromStdin) return readStdinLine('--password-stdin');
  if (!process.stdin.isTTY)
    throw new ConfigError('--password-stdin is required when stdin is not a terminal (pipe the password in)');
  const password = await askSilently(options.existing ? 'Password: ' : 'New password: ');
  if (options.existing) return password;
  if ((await askSilently('Again: ')) !== password)
    throw new ConfigError('the two passwords differ; nothing changed');
  return password;
}

/** A prompt on stderr, the answer not echoed. */
export function askSilently(prompt: string): Promise<string> {
  return read({ prompt, silent: true, replace: '', output: process.stderr });
}

/** One secret on stdin (the password, a client secret): its line break dropped, never empty. */
export async function readStdinLine(flag: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxStdinBytes) throw new ConfigError(`${flag}: more than ${maxStdinBytes} bytes on stdin`);
    chunks.push(chunk);
  }
  // Like `docker login --password-stdin`: the line's end is no part of the password.
  const secret = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (secret === '') throw new ConfigError(`${flag}: stdin held nothing`);
  return secret;
}
