import { validationFailed } from '../../errors/errors.ts';
import { type EventType, eventTypes } from './event.ts';

const maxTypes = 32;

/**
 * The event types of a `type` filter: each value may list several, comma-separated, and name
 * a type or a group (`file.*`). Undefined when no type is asked for (every type).
 */
export function toAuditTypes(value: string | readonly string[] | undefined): EventType[] | undefined {
  if (value === undefined) return undefined;
  const names = [value]
    .flat()
    .flatMap((item) => item.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  if (names.length > maxTypes) throw validationFailed(`type: at most ${maxTypes} event types`);
  const types = new Set<EventType>();
  for (const name of names) {
    const matching = name.endsWith('.*')
      ? eventTypes.filter((type) => type.startsWith(name.slice(0, -1)))
      : eventTypes.filter((type) => type === name);
    if (matching.length === 0)
      throw validationFailed(
        `type: ${JSON.stringify(name)} is no event type; use a group such as file.* or one of ${eventTypes.join(', ')}`,
      );
    for (const type of matching) types.add(type);
  }
  return [...types];
}

// A date, or a date and time with its zone: a time without a zone would be read in the
// server's, which the caller cannot know.
const isoInstant =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date (midnight UTC) or date-time with a zone; a 400 naming the filter otherwise. */
export function toInstant(value: string | undefined, name: 'from' | 'to'): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const match = isoInstant.exec(value);
  const problem = () =>
    validationFailed(
      `${name} must be an ISO 8601 date or date-time with a zone, such as 2026-01-31 or 2026-01-31T12:00:00Z`,
    );
  if (!match) throw problem();
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse rolls 31 February over into March: the day must exist in its month.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) throw problem();
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw problem();
  return at;
}
