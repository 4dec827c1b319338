import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { isAppError } from '../../errors/app-error.ts';
import { TokenService } from './token-service.ts';

const withCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;
const key = (id: string) => ({ id, secret: randomBytes(32) });
const claims = { userId: 'u1', projectId: 'p1', sessionId: 's1' };

it('answers a token verified before from memory, still expiring it and refusing any other spelling', () => {
  const tokens = new TokenService({ keys: [key('k1')], ttlSeconds: 60 });
  const { token, expiresAt } = tokens.issue(claims, 1000);
  // The claims, and the expiry an event stream ends at (issue 35, item 8).
  assert.deepEqual(tokens.verify(token, 1000), { ...claims, expiresAt });
  assert.deepEqual(tokens.verify(token, expiresAt), { ...claims, expiresAt }, 'the second time, from memory');
  assert.throws(() => tokens.verify(token, expiresAt + 1), withCode('TOKEN_EXPIRED'));
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
  assert.throws(() => tokens.verify(`${header}.${payload}.${flipped}`, 1000), withCode('INVALID_TOKEN'));
  assert.throws(() => tokens.verify(`${token}=`, 1000), withCode('INVALID_TOKEN'));
  // A retired key makes a new service, which remembers nothing the old one verified.
  const rotated = new TokenService({ keys: [key('k2')], ttlSeconds: 60 });
  assert.throws(() => rotated.verify(token, 1000), withCode('INVALID_TOKEN'));
});
