import { isIP } from 'node:net';
import { ConfigError } from './config-error.ts';

/** A bind that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** 0.0.0.0 or ::: every address of the machine, a name no client can use. */
export function isUnspecified(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** A host as it goes into a URL (IPv6 in brackets). */
export function formatHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

const listenProblems: Record<string, string> = {
  EADDRINUSE: 'is already in use (another server runs there?)',
  EACCES: 'needs privileges this process does not have (ports below 1024 do)',
  EADDRNOTAVAIL: 'is not an address of this machine',
  ENOTFOUND: 'is a host name that does not resolve',
  EAI_AGAIN: 'is a host name that does not resolve (yet)',
};

/** listen()'s errors, as one line naming the flag to fix; other errors pass unchanged. */
export function toListenError(error: unknown, address: { host: string; port: number }): unknown {
  const problem = listenProblems[(error as NodeJS.ErrnoException).code ?? ''];
  if (!problem) return error;
  const where = `${formatHost(address.host)}:${address.port}`;
  const flag = /^E(ADDRINUSE|ACCES)$/.test((error as NodeJS.ErrnoException).code!)
    ? `--port ${address.port}`
    : `--host ${address.host}`;
  return new ConfigError(`${flag}: ${where} ${problem}`, { cause: error });
}
