import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertPasswordPolicy } from './password-policy.ts';

it('takes 8 to 1024 characters without composition rules, and refuses common passwords in any case', () => {
  for (const password of [
    'correct horse',
    'a'.repeat(8).replace('aaaa', 'zq9!'),
    'x'.repeat(1024),
    'ééééééééé',
  ]) {
    assert.doesNotThrow(() => assertPasswordPolicy(password), password);
  }
  for (const password of [
    '1234567',
    'x'.repeat(1025),
    'password',
    'PassWord1',
    'qwertyuiop',
    '12345678',
    'Iloveyou',
  ]) {
    assert.throws(() => assertPasswordPolicy(password), { code: 'VALIDATION_FAILED' }, password);
  }
});
