import type { Config } from '../config/config.ts';
import { type AuditEntry, type AuditFilters, listAuditPage } from '../domain/events/audit-page.ts';
import { getProject, withStores } from './admin-commands.ts';
import type { Command } from './command.ts';
import { withLocalPaths } from './local-paths.ts';

/** `coffer audit <project>`: a page of the project's audit log, as GET /api/v1/audit answers it. */
export async function auditList(config: Config, input: { project: string; filters: AuditFilters }) {
  return withStores(config, async (repositories) => {
    const project = await getProject(repositories, input.project);
    return listAuditPage(repositories, project.id, input.filters);
  });
}

/**
 * One line an event: when, what, who (kind:id), from where, which file; then the people by
 * email (issue 43), last so the columns before keep their places for scripts that cut them.
 */
export function toAuditLine(event: AuditEntry): string {
  const { actor, subject } = event;
  const about = subject && subject.userId !== actor.id ? subject : null;
  return [
    event.timestamp,
    event.type,
    `${actor.kind}${actor.id ? `:${actor.id}` : ''}`,
    actor.ip ?? '-',
    event.fileId ? `file ${event.fileId}` : '-',
    ...(actor.email ? [`by ${actor.email}`] : []),
    ...(about ? [`about user ${about.userId}${about.email ? ` <${about.email}>` : ''}`] : []),
  ].join('  ');
}

export const auditCommands: Record<string, Command> = {
  audit: {
    summary:
      "A project's audit log, newest first, 100 events a page (--limit: fewer; --cursor for older ones).",
    flags: ['type', 'actor', 'file', 'from', 'to', 'cursor', 'limit', 'json'],
    args: ['<project>'],
    run: async (config, values, [project]) => {
      const filters: AuditFilters = {
        ...(values.type && { type: values.type }),
        ...(values.actor !== undefined && { actor: values.actor }),
        ...(values.file !== undefined && { fileId: values.file }),
        ...(values.from !== undefined && { from: values.from }),
        ...(values.to !== undefined && { to: values.to }),
        ...(values.cursor !== undefined && { cursor: values.cursor }),
        ...(values.limit !== undefined && { pageSize: values.limit }),
      };
      const page = await withLocalPaths(config, { stores: 'existing' }, () =>
        auditList(config, { project: project!, filters }),
      );
      const lines = page.events.map(toAuditLine);
      if (page.nextCursor) lines.push(`(older: --cursor ${page.nextCursor})`);
      return { json: page, text: lines.join('\n') || 'No events' };
    },
  },
};
