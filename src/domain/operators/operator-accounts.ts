import { assertPasswordPolicy } from '../identity/password-policy.ts';
import { hashPassword } from '../identity/passwords.ts';
import { newId } from '../ids.ts';
import type { Operator, OperatorRepository } from '../ports.ts';

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

/** One operator per address, whatever its case. */
export function toOperatorEmail(email: string): string {
  return email.trim().toLowerCase();
}
