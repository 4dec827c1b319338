import { createRequire } from 'node:module';
import { validationFailed } from '../../errors/errors.ts';
import { maxPasswordLength, minPasswordLength } from './passwords.ts';

/** How many of the most common passwords (zxcvbn's list, ranked by frequency) are refused. */
const commonPasswordCount = 10_000;

let commonPasswords: Set<string> | undefined;

/**
 * zxcvbn's dictionaries, loaded on the first new password: importing them decompresses every
 * list (~25 ms of CPU), which each `coffer` command and server process would otherwise pay
 * at start whether or not it ever sets a password.
 */
function loadCommonPasswords(): Set<string> {
  const { dictionary } = createRequire(import.meta.url)(
    '@zxcvbn-ts/language-common',
  ) as typeof import('@zxcvbn-ts/language-common');
  return new Set(
    dictionary['passwords-common'].slice(0, commonPasswordCount).map((common) => common.toLowerCase()),
  );
}

/**
 * The policy for every new password (signup, change, `coffer user create`), as NIST SP 800-63B
 * §5.1.1.2 advises: 8 to 1024 characters, no composition rules, and none of the most common
 * passwords, compared case-insensitively. Throws VALIDATION_FAILED saying which rule failed.
 */
export function assertPasswordPolicy(password: string): void {
  if (password.length < minPasswordLength || password.length > maxPasswordLength) {
    throw validationFailed(`password must be ${minPasswordLength} to ${maxPasswordLength} characters long`);
  }
  commonPasswords ??= loadCommonPasswords();
  if (commonPasswords.has(password.toLowerCase())) {
    throw validationFailed('password is one of the most common passwords; choose another');
  }
}
