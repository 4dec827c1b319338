import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { resolvePublicUrl } from '../config/public-url.ts';
import { findServingUrl } from '../config/serving-file.ts';
import { createOperator, issueSignInLink, toOperatorEmail } from '../domain/operators/operator-accounts.ts';
import { notFound } from '../errors/errors.ts';
import { withStores } from './admin-commands.ts';
import type { Command } from './command.ts';
import { chooseOrCreateOperator } from './first-operator.ts';
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
  console: {
    summary:
      "Print a one-time link that signs in to the console (good once, for 10 minutes); --email names the operator when there are several, and on a fresh install creates the first (asked for on a terminal without it); the link points at --public-url, else at the server running on this data dir, else is built like serve's (--host and --port).",
    flags: ['email', 'public-url', 'host', 'port', 'tls-cert', 'json'],
    run: async (config, values) => {
      // A fresh install has no database yet: this command may be its first (as project create).
      await prepareLocalPaths(config, { dataDir: true, stores: 'create' });
      const { operator, created, token, expiresAt } = await withStores(config, async (repositories) => {
        const now = new Date();
        const chosen = await chooseOrCreateOperator(repositories.operators, values.email, now);
        return { ...chosen, ...(await issueSignInLink(repositories.operators, chosen.operator, now)) };
      });
      // The token rides in the fragment: browsers never send it to a server or in a Referer.
      const origin =
        config.publicUrl ??
        (await findServingUrl(config.dataDir)) ??
        resolvePublicUrl(config).at(config.port);
      const url = `${origin}/console/sign-in#token=${token}`;
      const json = { url, email: operator.email, expiresAt: expiresAt.toISOString(), created };
      const first = created
        ? `Created the first operator, ${operator.email} (no password: \`coffer console\` prints a new link whenever needed).\n`
        : '';
      return {
        json,
        text: `${first}Sign in to the console as ${operator.email} (once, within 10 minutes):\n${url}`,
      };
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
