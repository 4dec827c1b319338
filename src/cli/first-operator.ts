import { read } from 'read';
import { ConfigError } from '../config/config-error.ts';
import { toAccountEmail } from '../domain/identity/accounts.ts';
import { createLinkOnlyOperator, toOperatorEmail } from '../domain/operators/operator-accounts.ts';
import type { Operator, OperatorRepository } from '../domain/operators/operator-repository.ts';
import { notFound } from '../errors/errors.ts';

/**
 * The operator `coffer console` signs in: the one named by --email; without it, the only one.
 * On a fresh install (no operator yet) it makes the first, link-only, from --email or from an
 * address asked on the terminal (issue 43), rather than send the user to another command.
 */
export async function chooseOrCreateOperator(
  operators: OperatorRepository,
  email: string | undefined,
  now: Date,
): Promise<{ operator: Operator; created: boolean }> {
  const all = await operators.list();
  if (all.length === 0) {
    const address = toAccountEmail(email ?? (await askFirstOperatorEmail()));
    return { operator: await createLinkOnlyOperator(operators, address, now), created: true };
  }
  if (email !== undefined) {
    const found = await operators.findByEmail(toOperatorEmail(email));
    if (!found) throw notFound(`operator ${email}`);
    return { operator: { id: found.id, email: found.email, createdAt: found.createdAt }, created: false };
  }
  if (all.length === 1) return { operator: all[0]!, created: false };
  throw new ConfigError('--email is required: there is more than one operator');
}

/** The first operator's address, asked on the terminal; without one, how to give it. */
async function askFirstOperatorEmail(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new ConfigError(
      'No operator yet: `coffer console --email you@example.com` creates the first one and prints its sign-in link (`coffer operator create` makes one with a password)',
    );
  process.stderr.write(
    'No operator yet: this creates the first one (it signs in by one-time links like this one).\n',
  );
  const answer = (await read({ prompt: 'Email of the first operator: ', output: process.stderr })).trim();
  if (!answer) throw new ConfigError('no email given; nothing was created');
  return answer;
}
