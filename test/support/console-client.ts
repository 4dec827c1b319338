import assert from 'node:assert/strict';
import { type CofferProcess, runCli } from './coffer-process.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
export type ConsoleAnswer = { status: number; body: any };
export type ConsoleCall = ((method: string, path: string, body?: unknown) => Promise<ConsoleAnswer>) & {
  /** A GET of a console API path with the session, answered as it came (headers, bytes). */
  raw(path: string, headers?: Record<string, string>): Promise<Response>;
};

/**
 * Creates an operator with the CLI, signs in to the console API of `coffer`, and answers a
 * caller that sends the session cookie and the console header with every request.
 */
export async function signInToConsole(
  coffer: CofferProcess,
  email = 'ops@example.com',
): Promise<ConsoleCall> {
  const password = 'operator passphrase 42';
  const created = await runCli(
    ['operator', 'create', '--email', email, '--password-stdin', '--data-dir', coffer.dataDir],
    coffer.env,
    { input: password },
  );
  assert.equal(created.code, 0, created.stderr);
  const api = `${coffer.baseUrl}/console/api`;
  const signedIn = await fetch(`${api}/session`, {
    method: 'POST',
    headers: { 'x-coffer-console': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signedIn.status, 200);
  const cookie = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { cookie, 'x-coffer-console': '1' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const raw = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${api}${path}`, { headers: { ...headers, cookie } });
  return Object.assign(call, { raw });
}
