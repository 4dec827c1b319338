import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppSecretCheck, hashAppSecret } from './app-secrets.ts';

describe('AppSecretCheck', () => {
  const secret = 'a'.repeat(43);
  const wrong = `${'a'.repeat(42)}b`;

  it('accepts the right secret again and again, and never a wrong one, remembered or not', () => {
    const check = new AppSecretCheck();
    const project = { secretHash: hashAppSecret(secret) };
    assert.equal(check.isValid(project, wrong), false);
    assert.equal(check.isValid(project, secret), true);
    assert.equal(check.isValid(project, secret), true);
    assert.equal(check.isValid(project, wrong), false);
    assert.equal(check.isValid(project, secret.slice(1)), false);
  });

  it('remembers per project object: a project read again after a rotation checks its new hash', () => {
    const check = new AppSecretCheck();
    assert.equal(check.isValid({ secretHash: hashAppSecret(secret) }, secret), true);
    const rotated = { secretHash: hashAppSecret(wrong) };
    assert.equal(check.isValid(rotated, secret), false);
    assert.equal(check.isValid(rotated, wrong), true);
  });
});
