import assert from 'node:assert/strict';
import path from 'node:path';
import { type CofferProcess, runCli } from './coffer-process.ts';

/**
 * Logs `user` in with `coffer login` (the password on stdin), its credentials file in `dir`;
 * answers the environment that runs `coffer` as that user.
 */
export async function loginWithCli(
  coffer: CofferProcess,
  user: { email: string; password: string },
  dir: string,
): Promise<Record<string, string>> {
  const env = {
    COFFER_CREDENTIALS_FILE: path.join(dir, 'credentials.json'),
    COFFER_APP_SECRET: coffer.credentials.appSecret,
  };
  const flags = { '--url': coffer.baseUrl, '--app-id': coffer.credentials.appId, '--email': user.email };
  const login = await runCli(['login', ...Object.entries(flags).flat(), '--password-stdin'], env, {
    input: user.password,
    timeoutMs: 60_000,
  });
  assert.equal(login.code, 0, login.stderr);
  return env;
}
