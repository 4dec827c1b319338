import { type Setting, settings } from './settings.ts';

/** The settings as Markdown table rows (README and docs/config.md carry them, kept equal by a test). */
export function toConfigTableRows(): string {
  return Object.values(settings as Record<string, Setting>)
    .map(
      (s) =>
        `| ${s.env.replace(/^COFFER_/, '').toLowerCase()} | \`${s.env}\` | ${s.flag ? `\`--${s.flag}\`` : ''} | ${s.defaultValue === undefined ? '(derived)' : `\`${s.defaultValue}\``} | ${s.doc} |`,
    )
    .join('\n');
}

const start = '<!-- config-table:start -->';
const end = '<!-- config-table:end -->';

/** Replaces the rows between the config-table markers of a Markdown document. */
export function withConfigTable(markdown: string): string {
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from === -1 || to === -1) throw new Error('config-table markers missing');
  return `${markdown.slice(0, from + start.length)}\n${toConfigTableRows()}\n${markdown.slice(to)}`;
}
