import { appCommands } from './app-commands.ts';
import { auditCommands } from './audit-commands.ts';
import type { Command } from './command.ts';
import { endUserCommands } from './end-user-commands.ts';
import { findCommands } from './find-commands.ts';
import { instanceCommands } from './instance-commands.ts';
import { keysCommands } from './keys-commands.ts';
import { mailCommands } from './mail-commands.ts';
import { oauthCommands } from './oauth-commands.ts';
import { operatorCommands } from './operator-commands.ts';
import { projectCommands } from './project-commands.ts';
import { serviceKeyCommands } from './service-key-commands.ts';
import { trashCommands } from './trash-commands.ts';
import { userCommands } from './user-commands.ts';
import { versionCommands } from './version-commands.ts';
import { webhookCommands } from './webhook-commands.ts';

/** Every command: what it does and what it prints (JSON with --json, a sentence otherwise). */
export const commands: Record<string, Command> = {
  ...instanceCommands,
  ...projectCommands,
  ...serviceKeyCommands,
  ...oauthCommands,
  ...userCommands,
  ...appCommands,
  ...keysCommands,
  ...operatorCommands,
  ...endUserCommands,
  ...findCommands,
  ...versionCommands,
  ...trashCommands,
  ...webhookCommands,
  ...auditCommands,
  ...mailCommands,
};
