import { validationFailed } from '../../errors/errors.ts';
import {
  assignPreset,
  isPresetName,
  isPresetTable,
  type PresetTable,
} from '../renditions/rendition-presets.ts';
import { assertRole } from './roles.ts';

/**
 * What an operator may tune per project (`coffer project set <project> name=value…`). Stored as
 * one JSON object in `projects.settings`, so that a new setting is one entry below and no
 * migration; a stored value that no longer parses (or an unknown name) falls back to its
 * default instead of failing every request of the project.
 */
export type ProjectSettings = {
  /** Whether `POST /api/v1/auth/signup` creates accounts; `closed` leaves account creation to operators. */
  signup: 'open' | 'closed';
  /** Whether `POST /api/v1/auth/signup/anonymous` creates accounts of role `anonymous`. */
  anonymousSignup: boolean;
  /** The largest file an upload may hold, in bytes; null: the server's own limit only. */
  maxFileSizeBytes: number | null;
  /** Content types an upload may declare or carry (`image/*` wildcards); empty: any. */
  allowedContentTypes: string[];
  /** Per user: bytes and files held (verified or pending); null: no quota. */
  userQuotaBytes: number | null;
  userQuotaFiles: number | null;
  /** Per project: bytes and files held; null: no quota. */
  projectQuotaBytes: number | null;
  projectQuotaFiles: number | null;
  /** Lifetime of the access tokens login, signup and refresh issue; null: the server's (COFFER_TOKEN_TTL_SECONDS). */
  accessTokenLifetimeSeconds: number | null;
  /**
   * Roles whose holders are the project's admins (read, verify, share and delete every file).
   * Never stored: the role the project was created with (`projects.admin_role`, "admin").
   */
  adminRoles: string[];
  /**
   * Image renditions (issue 21): `any` takes free parameters within the server's bounds and the
   * presets, `presets` only the presets, `off` none.
   */
  renditions: 'any' | 'presets' | 'off';
  /** Named renditions, set as `renditions.<name>=200x200,cover,webp,q80`: name → canonical spec. */
  renditionPresets: PresetTable;
};

type SettingDefinition = {
  /** One line for `coffer project set --help` and docs. */
  description: string;
  /** Text from the command line → the value; throws VALIDATION_FAILED naming the setting. */
  parse(text: string, name: string): unknown;
  /** Whether a stored JSON value is well formed (else the default applies). */
  isValid(value: unknown): boolean;
};

/**
 * The bounds of accessTokenLifetimeSeconds. The upper one also bounds how long a retired token
 * signing key keeps verifying (domain/keys/key-schedule.ts).
 */
export const minTokenLifetimeSeconds = 60;
export const maxTokenLifetimeSeconds = 86_400;

export const defaultProjectSettings: Readonly<ProjectSettings> = Object.freeze({
  signup: 'open',
  anonymousSignup: false,
  maxFileSizeBytes: null,
  allowedContentTypes: [],
  userQuotaBytes: null,
  userQuotaFiles: null,
  projectQuotaBytes: null,
  projectQuotaFiles: null,
  accessTokenLifetimeSeconds: null,
  adminRoles: ['admin'],
  renditions: 'any',
  renditionPresets: {},
});

export const projectSettingDefinitions: Record<keyof ProjectSettings, SettingDefinition> = {
  signup: {
    description: 'open | closed: whether users may sign up themselves',
    parse: (text, name) => oneOf(text, name, ['open', 'closed'] as const),
    isValid: (value) => value === 'open' || value === 'closed',
  },
  anonymousSignup: {
    description: 'true | false: whether anonymous accounts (role "anonymous") may be created',
    parse: (text, name) => oneOf(text, name, ['true', 'false'] as const) === 'true',
    isValid: (value) => typeof value === 'boolean',
  },
  maxFileSizeBytes: sizeSetting('the largest file an upload may hold'),
  allowedContentTypes: {
    description: 'comma-separated types an upload may have, `image/*` allowed; empty: any',
    parse: parseContentTypePatterns,
    isValid: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  },
  userQuotaBytes: sizeSetting('bytes each user may hold'),
  userQuotaFiles: countSetting('files each user may hold'),
  projectQuotaBytes: sizeSetting('bytes the project may hold'),
  projectQuotaFiles: countSetting('files the project may hold'),
  accessTokenLifetimeSeconds: {
    description: `seconds an access token lasts, ${minTokenLifetimeSeconds} to ${maxTokenLifetimeSeconds}, or none (the server's)`,
    parse: parseTokenLifetime,
    isValid: (value) => value === null || isTokenLifetime(value),
  },
  adminRoles: {
    description:
      'comma-separated roles whose holders administer every file of the project (e.g. admin,staff)',
    parse: parseRoleNames,
    isValid: (value) =>
      Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'),
  },
  renditions: {
    description:
      'any | presets | off: whether files may be rendered with free parameters, presets only, or not at all',
    parse: (text, name) => oneOf(text, name, ['any', 'presets', 'off'] as const),
    isValid: (value) => value === 'any' || value === 'presets' || value === 'off',
  },
  renditionPresets: {
    description:
      'set one at a time as renditions.<name>=<width>x<height>[,cover|contain|fill|inside][,origin|webp|avif|jpeg|png][,q<20–100>]; renditions.<name>= removes it',
    parse: (_text, name) => {
      throw validationFailed(`${name} is set one preset at a time: renditions.<name>=200x200,cover,webp,q80`);
    },
    isValid: isPresetTable,
  },
};

export const projectSettingNames = Object.keys(projectSettingDefinitions) as (keyof ProjectSettings)[];

function isTokenLifetime(value: unknown): boolean {
  return (
    Number.isSafeInteger(value) &&
    (value as number) >= minTokenLifetimeSeconds &&
    (value as number) <= maxTokenLifetimeSeconds
  );
}

function parseTokenLifetime(text: string, name: string): number | null {
  if (text.toLowerCase() === 'none') return null;
  const seconds = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!isTokenLifetime(seconds))
    throw validationFailed(
      `${name} must be whole seconds from ${minTokenLifetimeSeconds} to ${maxTokenLifetimeSeconds}, or none`,
    );
  return seconds;
}

/** Roles as accounts hold them (accounts.ts), at least one. */
function parseRoleNames(text: string, name: string): string[] {
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

/**
 * The settings stored as JSON text: every known, well-formed value over the defaults.
 * `defaults` may replace some (adminRoles: the project's own admin role, projects.admin_role).
 */
export function readStoredSettings(json: string, defaults: Partial<ProjectSettings> = {}): ProjectSettings {
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    stored = {};
  }
  const settings: Record<string, unknown> = { ...defaultProjectSettings, ...defaults };
  if (stored !== null && typeof stored === 'object') {
    for (const name of projectSettingNames) {
      const value = (stored as Record<string, unknown>)[name];
      if (projectSettingDefinitions[name].isValid(value)) settings[name] = value;
    }
  }
  return settings as ProjectSettings;
}

/** Applies `name=value` assignments (all checked before any applies); `name=` resets one to its default. */
export function assignSettings(current: ProjectSettings, assignments: readonly string[]): ProjectSettings {
  if (assignments.length === 0) throw validationFailed('name settings to change as name=value');
  const next: Record<string, unknown> = { ...current };
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    const name = (equals < 0 ? assignment : assignment.slice(0, equals)) as keyof ProjectSettings;
    if (isPresetName(name) && equals >= 0) {
      next.renditionPresets = assignPreset(
        next.renditionPresets as PresetTable,
        name,
        assignment.slice(equals + 1).trim(),
      );
      continue;
    }
    if (!Object.hasOwn(projectSettingDefinitions, name)) {
      throw validationFailed(
        `unknown setting ${JSON.stringify(name)}; known: ${projectSettingNames.join(', ')}`,
      );
    }
    if (equals < 0) throw validationFailed(`${name}: write ${name}=value`);
    const text = assignment.slice(equals + 1).trim();
    next[name] =
      text === '' ? defaultProjectSettings[name] : projectSettingDefinitions[name].parse(text, name);
  }
  return next as ProjectSettings;
}

function oneOf<T extends string>(text: string, name: string, choices: readonly T[]): T {
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

function sizeSetting(what: string): SettingDefinition {
  return {
    description: `${what}: bytes or KiB/MiB/GiB/TiB (e.g. 10MiB), or none`,
    parse: parseByteSize,
    isValid: isLimit,
  };
}

function countSetting(what: string): SettingDefinition {
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

function isLimit(value: unknown): boolean {
  return value === null || (Number.isSafeInteger(value) && (value as number) >= 0);
}

const typePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/;

function parseContentTypePatterns(text: string, name: string): string[] {
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
