import { validationFailed } from '../../errors/errors.ts';
import { assertRole } from './roles.ts';

/**
 * Parsers of project setting values (project-settings.ts): text from `coffer project set` or
 * the console → the stored value, or VALIDATION_FAILED naming the setting.
 */

/**
 * The bounds of accessTokenLifetimeSeconds. The upper one also bounds how long a retired token
 * signing key keeps verifying (domain/keys/key-schedule.ts).
 */
export const minTokenLifetimeSeconds = 60;
export const maxTokenLifetimeSeconds = 86_400;

export type SettingDefinition = {
  /** One line for `coffer project set --help` and docs. */
  description: string;
  /** Text from the command line → the value; throws VALIDATION_FAILED naming the setting. */
  parse(text: string, name: string): unknown;
  /** Whether a stored JSON value is well formed (else the default applies). */
  isValid(value: unknown): boolean;
};

export function booleanSetting(what: string): SettingDefinition {
  return {
    description: `true | false: ${what}`,
    parse: (text, name) => oneOf(text, name, ['true', 'false'] as const) === 'true',
    isValid: (value) => typeof value === 'boolean',
  };
}

/** A whole number from min to max. */
export function parseWholeNumber(text: string, name: string, min: number, max: number): number {
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw validationFailed(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

export function isTokenLifetime(value: unknown): boolean {
  return (
    Number.isSafeInteger(value) &&
    (value as number) >= minTokenLifetimeSeconds &&
    (value as number) <= maxTokenLifetimeSeconds
  );
}

export function parseTokenLifetime(text: string, name: string): number | null {
  if (text.toLowerCase() === 'none') return null;
  const seconds = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!isTokenLifetime(seconds))
    throw validationFailed(
      `${name} must be whole seconds from ${minTokenLifetimeSeconds} to ${maxTokenLifetimeSeconds}, or none`,
    );
  return seconds;
}

/** Roles as accounts hold them (accounts.ts), at least one. */
export function parseRoleNames(text: string, name: string): string[] {
  const roles = [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
  if (roles.length === 0) throw validationFailed(`${name} needs at least one role (e.g. admin)`);
  for (const role of roles) {
    try {
      assertRole(role);
    } catch (error) {
      throw validationFailed(`${name}: ${JSON.stringify(role)}: ${(error as Error).message}`);
    }
  }
  return roles;
}

export function oneOf<T extends string>(text: string, name: string, choices: readonly T[]): T {
  const value = text.toLowerCase();
  if (!(choices as readonly string[]).includes(value))
    throw validationFailed(`${name} must be one of ${choices.join(', ')}`);
  return value as T;
}

const sizeUnits: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** `1048576`, `512KiB`, `10 MiB`, `2GiB`, or `none`. */
export function parseByteSize(text: string, name: string): number | null {
  if (text.toLowerCase() === 'none') return null;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
  const unit = match && sizeUnits[match[2]!.toLowerCase()];
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw validationFailed(`${name} must be a size such as 1048576, 512KiB, 10MiB, 2GiB, or none`);
  return bytes;
}

export function sizeSetting(what: string): SettingDefinition {
  return {
    description: `${what}: bytes or KiB/MiB/GiB/TiB (e.g. 10MiB), or none`,
    parse: parseByteSize,
    isValid: isLimit,
  };
}

/** A size that must be set (never none), at least one byte. */
export function requiredSizeSetting(what: string): SettingDefinition {
  return {
    description: `${what}: bytes or KiB/MiB/GiB/TiB (e.g. 10GiB)`,
    parse: (text, name) => {
      const bytes = text.toLowerCase() === 'none' ? null : parseByteSize(text, name);
      if (bytes === null || bytes < 1)
        throw validationFailed(`${name} must be a size of at least 1 byte, such as 10GiB`);
      return bytes;
    },
    isValid: (value) => Number.isSafeInteger(value) && (value as number) >= 1,
  };
}

export function countSetting(what: string): SettingDefinition {
  return {
    description: `${what}: a whole number, or none`,
    parse: (text, name) => {
      if (text.toLowerCase() === 'none') return null;
      const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(count)) throw validationFailed(`${name} must be a whole number or none`);
      return count;
    },
    isValid: isLimit,
  };
}

export function isLimit(value: unknown): boolean {
  return value === null || (Number.isSafeInteger(value) && (value as number) >= 0);
}

const typePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/;

export function parseContentTypePatterns(text: string, name: string): string[] {
  const patterns = text
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
  for (const pattern of patterns) {
    if (!typePattern.test(pattern))
      throw validationFailed(`${name}: ${JSON.stringify(pattern)} is not a type/subtype (type/* allowed)`);
  }
  return patterns;
}

/** Whether a content type (parameters ignored) matches the allowed patterns; an empty list allows all. */
export function isContentTypeAllowed(contentType: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  const [type] = essence.split('/', 1);
  return patterns.some((pattern) => pattern === essence || pattern === `${type}/*`);
}

/** A setting of whole numbers from `min` (0 unless told) to `max`. */
export function wholeNumberSetting(description: string, max: number, min = 0): SettingDefinition {
  return {
    description,
    parse: (text, name) => parseWholeNumber(text, name, min, max),
    isValid: (value) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}
