import { replaceBetweenMarkers } from '../../src/config/config-table.ts';
import { errorCodes } from '../../src/errors/error-codes.ts';
import {
  type CallerId,
  callers,
  type EndpointId,
  endpoints,
  expectedOutcome,
  isScoped,
  type Outcome,
} from './access-matrix.ts';

/** The access matrix as the Markdown tables of docs/security.md (`npm run docs:security`). */
export function toAccessTables(): string {
  const control = (Object.keys(endpoints) as EndpointId[]).filter((id) =>
    endpoints[id].path.startsWith('/api/v1'),
  );
  const rest = (Object.keys(endpoints) as EndpointId[]).filter((id) => !control.includes(id));
  return [
    '#### Control plane (`/api/v1`)',
    '',
    toTable(control, (id) => `${endpoints[id].method} ${endpoints[id].path.replace('/api/v1', '')}`),
    '',
    '#### Probes and data plane (`/blob/v1/files/:fileId`)',
    '',
    toTable(rest, (id) =>
      endpoints[id].path.startsWith('/blob/') ? endpoints[id].method : `GET ${endpoints[id].path}`,
    ),
  ].join('\n');
}

function toTable(columns: EndpointId[], header: (id: EndpointId) => string): string {
  const rows = (Object.keys(callers) as CallerId[]).map(
    (caller) => `| ${callers[caller]} | ${columns.map((id) => toCell(caller, id)).join(' | ')} |`,
  );
  return [
    `| caller | ${columns.map(header).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

function toCell(caller: CallerId, endpoint: EndpointId): string {
  const text = (outcome: Outcome) =>
    outcome === 'ok' ? String(endpoints[endpoint].okStatus) : `${errorCodes[outcome]} \`${outcome}\``;
  const user = expectedOutcome(caller, endpoint, 'user');
  const star = isScoped(endpoint) ? expectedOutcome(caller, endpoint, '*') : user;
  return user === star ? text(user) : `${text(user)} (scope \`user\`), ${text(star)} (scope \`*\`)`;
}

/** Replaces what lies between the access-table markers of a Markdown document. */
export function withAccessTable(markdown: string): string {
  return replaceBetweenMarkers(markdown, 'access-table', toAccessTables());
}
