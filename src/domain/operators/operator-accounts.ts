import { createHash, randomBytes } from 'node:crypto';
import { noPasswordHash } from '../identity/accounts.ts';
import { assertPasswordPolicy } from '../identity/password-policy.ts';
import { hashPassword } from '../identity/passwords.ts';
import { newId } from '../ids.ts';
import type { Operator, OperatorRepository } from './operator-repository.ts';

/** Operators are created, listed and deleted from the command line (`coffer operator …`). */
export async function createOperator(
  operators: OperatorRepository,
  input: { email: string; password: string },
  now: Date,
): Promise<Operator> {
  assertPasswordPolicy(input.password);
  const operator = { id: newId(), email: toOperatorEmail(input.email), createdAt: now };
  await operators.create({ ...operator, passwordHash: await hashPassword(input.password) });
  return operator;
}

/**
 * The first operator of a fresh install, made by `coffer console` (issue 43): no password (no
 * password matches its hash), it signs in by the one-time links `coffer console` prints.
 */
export async function createLinkOnlyOperator(
  operators: OperatorRepository,
  email: string,
  now: Date,
): Promise<Operator> {
  const operator = { id: newId(), email: toOperatorEmail(email), createdAt: now };
  await operators.create({ ...operator, passwordHash: noPasswordHash });
  return operator;
}

/** One operator per address, whatever its case. */
export function toOperatorEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** How long a one-time sign-in link (`coffer console`) stays good. */
export const signInLinkSeconds = 10 * 60;

/** A one-time sign-in link's token for the operator: good once, for ten minutes; the database keeps its hash. */
export async function issueSignInLink(
  operators: OperatorRepository,
  operator: Operator,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + signInLinkSeconds * 1000);
  await operators.createSignInLink(
    { tokenHash: hashOperatorToken(token), operatorId: operator.id, expiresAt },
    now,
  );
  return { token, expiresAt };
}

/** Session and link tokens are kept as their SHA-256: a copy of the database opens nothing. */
export function hashOperatorToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
