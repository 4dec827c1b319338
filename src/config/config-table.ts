import type { Setting } from './setting.ts';
import { settings } from './settings.ts';

/** The settings as Markdown table rows (README and docs/config.md carry them, kept equal by a test). */
export function toConfigTableRows(): string {
  return Object.values(settings as Record<string, Setting>)
    .map(
      (s) =>
        `| ${s.env.replace(/^COFFER_/, '').toLowerCase()} | \`${s.env}\` | ${s.flag ? `\`--${s.flag}\`` : ''} | ${s.defaultValue === undefined ? '(derived)' : `\`${s.defaultValue}\``} | ${s.doc} |`,
    )
    .join('\n');
}

/** Replaces the rows between the config-table markers of a Markdown document. */
export function withConfigTable(markdown: string): string {
  return replaceBetweenMarkers(markdown, 'config-table', toConfigTableRows());
}

/** Replaces what lies between `<!-- name:start -->` and `<!-- name:end -->` in a Markdown document. */
export function replaceBetweenMarkers(markdown: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(`<!-- ${name}:end -->`);
  if (from === -1 || to === -1) throw new Error(`${name} markers missing`);
  return `${markdown.slice(0, from + start.length)}\n${content}\n${markdown.slice(to)}`;
}
