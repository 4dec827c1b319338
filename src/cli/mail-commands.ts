import { ConfigError } from '../config/config-error.ts';
import { systemClock } from '../domain/clock.ts';
import { toNewMail } from '../domain/mail/mail.ts';
import { getProject, withStores } from './admin-commands.ts';
import type { Command } from './command.ts';
import { defaultProjectName } from './default-project.ts';
import { withLocalPaths } from './local-paths.ts';

/** `coffer mail test <to>`: queues a mail, which a running server then sends (proves SMTP end to end). */
export const mailCommands: Record<string, Command> = {
  'mail test': {
    summary: 'Queue a test mail to <to>; a running server sends it (over COFFER_SMTP_URL, or to its log).',
    flags: ['project', 'json'],
    args: ['<to>'],
    run: async (config, values, [to]) => {
      // A plain address only: a display name or a list would be taken as more than one recipient.
      if (!to || !/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(to))
        throw new ConfigError(`<to> ${JSON.stringify(to ?? '')}: must be one email address`);
      const mail = await withLocalPaths(config, { stores: 'existing' }, () =>
        withStores(config, async (repositories) => {
          const project = await getProject(repositories, values.project ?? defaultProjectName);
          const now = systemClock.now();
          const queued = toNewMail(
            {
              to: to!,
              subject: 'Coffer test mail',
              text: `This is a test mail from Coffer (project ${project.name}), queued at ${now.toISOString()}.`,
            },
            { projectId: project.id, purpose: 'mail-test', now },
          );
          await repositories.mail.enqueue(queued);
          return queued;
        }),
      );
      const text = `Queued test mail ${mail.id} to ${mail.to}; a running server sends it`;
      return { json: { mailId: mail.id, to: mail.to, queued: true }, text };
    },
  },
};
