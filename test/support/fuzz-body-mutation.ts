import fc from 'fast-check';
import type { Mutation } from './fuzz-mutation.ts';
import { deepJson, nastyJsonValue } from './fuzz-values.ts';
import type { WireRequest } from './wire-client.ts';

/** Body changes: JSON-aware when the body is JSON, byte-level otherwise. */
export const mutateBody = fc
  .tuple(
    fc.nat(),
    nastyJsonValue,
    deepJson,
    fc.uint8Array({ maxLength: 512 }),
    fc.constantFrom(
      'field type',
      'field removed',
      'proto key',
      'constructor key',
      'duplicate key',
      'whole value',
      'truncated',
      'bom',
      'trailing garbage',
      'deep nesting',
      'invalid utf-8',
      'random bytes',
      'too large',
      'empty',
    ),
  )
  .map(
    ([at, value, deep, bytes, how]): Mutation => ({
      name: `body ${how}`,
      apply: (r) => {
        try {
          return mutateBodyAs(how, r, { at, value, deep, bytes });
        } catch {
          // A body a previous mutation nested too deep for JSON.stringify stays as it is.
          return r;
        }
      },
    }),
  );

function mutateBodyAs(
  how: string,
  r: WireRequest,
  { at, value, deep, bytes }: { at: number; value: unknown; deep: string; bytes: Uint8Array },
): WireRequest {
  const text = r.body?.toString('utf8') ?? '';
  let object: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text);
    object = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {}
  const keys = Object.keys(object ?? {});
  const key = keys[at % Math.max(1, keys.length)] ?? 'field';
  const withBody = (body: string | Buffer) => ({ ...r, body: Buffer.from(body) });
  switch (how) {
    case 'field type':
      return withBody(JSON.stringify({ ...object, [key]: value }));
    case 'field removed': {
      const { [key]: _, ...rest } = object ?? {};
      return withBody(JSON.stringify(rest));
    }
    case 'proto key':
      return withBody(
        `{"__proto__":{"isAdmin":true,"role":"admin"},${JSON.stringify(object ?? {}).slice(1)}`,
      );
    case 'constructor key':
      return withBody(
        `{"constructor":{"prototype":{"isAdmin":true}},${JSON.stringify(object ?? {}).slice(1)}`,
      );
    case 'duplicate key':
      return withBody(
        `{${JSON.stringify(key)}:${JSON.stringify(value)},${JSON.stringify(object ?? {}).slice(1)}`,
      );
    case 'whole value':
      return withBody(JSON.stringify(value) ?? '');
    case 'truncated':
      return withBody(text.slice(0, at % Math.max(1, text.length)));
    case 'bom':
      return withBody(`\ufeff${text}`);
    case 'trailing garbage':
      return withBody(`${text}}{x`);
    case 'deep nesting':
      return withBody(object ? JSON.stringify({ ...object, [key]: '$' }).replace('"$"', deep) : deep);
    case 'invalid utf-8':
      return withBody(
        Buffer.concat([
          Buffer.from(text.slice(0, 5)),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(text.slice(5)),
        ]),
      );
    case 'random bytes':
      return withBody(Buffer.from(bytes));
    case 'too large':
      return withBody(JSON.stringify({ ...object, [key]: 'x'.repeat(70_000 + (at % 50_000)) }));
    default:
      return withBody('');
  }
}
