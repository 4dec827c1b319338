import { validationFailed } from '../../errors/errors.ts';

/**
 * What the tables of named entries with string fields share (`oauth.<name>.<field>`,
 * `trustedIssuers.<name>.<field>`): the form of a name, of a URL field, and of the stored table.
 */
export const entryNamePattern = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** An http(s) URL without credentials or fragment (VALIDATION_FAILED naming the setting otherwise). */
export function assertSettingUrl(value: string, settingName: string): void {
  const url = URL.parse(value);
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.hash
  )
    throw validationFailed(`${settingName}: an http(s) URL without credentials or fragment`);
}

/** Whether a stored value is such a table: at most `maxEntries` well-named entries of known string fields. */
export function isNamedStringTable(value: unknown, maxEntries: number, fields: readonly string[]): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= maxEntries &&
    entries.every(
      ([name, entry]) =>
        entryNamePattern.test(name) &&
        entry !== null &&
        typeof entry === 'object' &&
        Object.entries(entry).every(([field, text]) => fields.includes(field) && typeof text === 'string'),
    )
  );
}
