import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import type { ManualClock } from '../support/manual-clock.ts';

/** A code the stock `otpauth` package makes for a secret at the server's (manual) time. */
export function codeAt(secret: string, clock: ManualClock): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
}

export function expectCode(response: ApiResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.code, code, response.text);
}

/** Signs up, enrols TOTP (a fresh session needs no password) and answers the secret and codes. */
export async function enrolTotp(client: ApiClient, clock: ManualClock) {
  const user = await client.signup();
  const started = await client.call('POST', '/api/v1/user/mfa/totp', { token: user.token });
  assert.equal(started.status, 200, started.text);
  const secret = started.body.secret as string;
  const confirmed = await client.call('POST', '/api/v1/user/mfa/totp/confirm', {
    token: user.token,
    body: { code: codeAt(secret, clock) },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  return { ...user, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

export function login(client: ApiClient, user: { email: string; password: string }, localAddress?: string) {
  return client.call('POST', '/api/v1/auth/login', {
    body: { email: user.email, password: user.password },
    ...(localAddress !== undefined && { localAddress }),
  });
}
