import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { createOperator, toOperatorEmail } from '../domain/operators/operator-accounts.ts';
import { notFound } from '../errors/errors.ts';
import { withStores } from './admin-commands.ts';
import type { Command } from './commands.ts';
import { prepareLocalPaths } from './local-paths.ts';
import { readPassword } from './read-password.ts';

async function onStores<T>(config: Config, work: Parameters<typeof withStores<T>>[1]): Promise<T> {
  await prepareLocalPaths(config, { stores: 'existing' });
  return withStores(config, work);
}

/** `coffer operator create|list|delete`: the people who may sign in to the console. */
export const operatorCommands: Record<string, Command> = {
  'operator create': {
    summary: 'Create a console operator (administers every project); the password as in user create.',
    flags: ['email', 'password', 'password-stdin', 'json'],
    run: async (config, values) => {
      const email = values.email;
      if (!email) throw new ConfigError('--email is required');
      const password = await readPassword({
        flag: values.password,
        fromStdin: values['password-stdin'] === true,
      });
      const operator = await onStores(config, (repositories) =>
        createOperator(repositories.operators, { email, password }, new Date()),
      );
      const json = { operatorId: operator.id, email: operator.email };
      return { json, text: `Operator ${operator.email} (${operator.id}) may sign in at /console` };
    },
  },
  'operator list': {
    summary: 'List the console operators.',
    flags: ['json'],
    run: async (config) => {
      const operators = await onStores(config, (repositories) => repositories.operators.list());
      const json = {
        operators: operators.map((operator) => ({
          ...operator,
          createdAt: operator.createdAt.toISOString(),
        })),
      };
      return { json, text: operators.map((operator) => operator.email).join('\n') || 'No operators' };
    },
  },
  'operator delete': {
    summary: 'Delete a console operator; their sessions end at once.',
    flags: ['json'],
    args: ['<email>'],
    run: async (config, _values, [email]) => {
      const deleted = await onStores(config, (repositories) =>
        repositories.operators.deleteByEmail(toOperatorEmail(email!)),
      );
      if (!deleted) throw notFound(`operator ${email}`);
      return { json: { deleted: toOperatorEmail(email!) }, text: `Operator ${email} deleted` };
    },
  },
};
