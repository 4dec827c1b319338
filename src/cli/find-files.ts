import type {
  CofferClient,
  CustomDataValue,
  FileRecord,
  SearchFilters,
} from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { toCustomValue } from '../domain/files/search-request.ts';
import type { Values } from './command.ts';

/** How many matches `coffer files find` prints without --limit. */
export const defaultFindLimit = 100;
/** The largest page the API gives (GET /api/v1/file's pageSize). */
const maxPageSize = 100;

/** `coffer files find`'s flags as the client's search filters. */
export function toSearchFilters(values: Values): SearchFilters {
  const types = values.type ?? [];
  if (types.length > 1) throw new ConfigError('--type takes one content type (image/png or image/*)');
  return {
    name: values.name,
    contentType: types[0],
    customData: toCustomData(values.custom ?? []),
    createdAfter: values.after,
    createdBefore: values.before,
    minSize: toByteCount(values['min-size'], '--min-size'),
    maxSize: toByteCount(values['max-size'], '--max-size'),
    sort: values.sort as SearchFilters['sort'],
    order: values.order as SearchFilters['order'],
    scope: values.scope as SearchFilters['scope'],
    filePath: values.path,
  };
}

/** --limit: a positive whole number; 100 when absent. */
export function toLimit(text: string | undefined): number {
  if (text === undefined) return defaultFindLimit;
  if (!/^[1-9]\d*$/.test(text)) throw new ConfigError(`--limit ${text}: a whole number, 1 or more`);
  return Number(text);
}

/**
 * The matches, up to `limit`, following `nextCursor` page after page; `more` says the server
 * had more to give. A page may hold fewer than asked and still continue (the server bounds the
 * work per page), so the loop goes by the cursor, never by a page's length.
 */
export async function findFiles(
  client: CofferClient,
  filters: SearchFilters,
  limit: number,
  onFile: (file: FileRecord) => void,
): Promise<{ found: number; more: boolean }> {
  let found = 0;
  let cursor: string | undefined;
  do {
    const pageSize = Math.min(maxPageSize, limit - found);
    const page = await client.search({ ...filters, pageSize, cursor });
    for (const file of page.docs.slice(0, limit - found)) onFile(file);
    found += Math.min(page.docs.length, limit - found);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && found < limit);
  return { found, more: cursor !== undefined };
}

/** `--custom key=value` (repeatable) → {key: value}; the value as the server reads its text. */
function toCustomData(pairs: readonly string[]): Record<string, CustomDataValue> | undefined {
  if (pairs.length === 0) return undefined;
  const customData: Record<string, CustomDataValue> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new ConfigError(`--custom ${pair}: write key=value`);
    // As the server reads the text: 7 and true a number and a boolean, "7" (quoted) the text 7.
    customData[pair.slice(0, equals)] = toCustomValue(pair.slice(equals + 1));
  }
  return customData;
}

function toByteCount(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new ConfigError(`${flag} ${text}: a number of bytes`);
  return Number(text);
}
