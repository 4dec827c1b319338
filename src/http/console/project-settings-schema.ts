import type { Project } from '../../domain/identity/project-repository.ts';
import {
  defaultProjectSettings,
  type ProjectSettings,
  projectSettingDefinitions,
  projectSettingNames,
} from '../../domain/identity/project-settings.ts';
import {
  maxArchiveFilesLimit,
  maxFolderOperationFilesLimit,
  maxPresignedDownloadSeconds,
  maxRetentionDays,
  maxVersionsKept,
  maxVideoSecondsLimit,
} from '../../domain/identity/setting-bounds.ts';
import { maxTokenLifetimeSeconds, minTokenLifetimeSeconds } from '../../domain/identity/setting-parsers.ts';

/** How the console edits a setting: the control that fits its values. */
export type SettingControl =
  | { kind: 'flag' }
  | { kind: 'choice' }
  | { kind: 'number'; unit: 'bytes' | 'seconds' | 'days' | 'count'; min: number; max: number }
  /** Comma-separated text, as `coffer project set` takes it. */
  | { kind: 'list' }
  | { kind: 'text' }
  /** Set one entry at a time in a section of its own (rendition presets, mail templates). */
  | { kind: 'table' };

/** One setting as the console shows it: its control, its help line and the project's default. */
export type SettingSchema = SettingControl & {
  name: keyof ProjectSettings;
  description: string;
  default: unknown;
  /** Whether the setting may be none (null): an empty number field means none. */
  nullable: boolean;
  /** The values a choice takes. */
  choices?: string[];
};

const bytes = { kind: 'number', unit: 'bytes', min: 0, max: Number.MAX_SAFE_INTEGER } as const;
const count = { kind: 'number', unit: 'count', min: 0, max: Number.MAX_SAFE_INTEGER } as const;

/**
 * The control of each setting. The defaults, the help lines, the choices and whether a setting
 * may be none come from the domain's definitions; the bounds below are the ones their parsers
 * hold (project-settings-schema.test.ts checks each against the setting's own isValid).
 */
const controls: Record<keyof ProjectSettings, SettingControl> = {
  signup: { kind: 'choice' },
  anonymousSignup: { kind: 'flag' },
  maxFileSizeBytes: bytes,
  allowedContentTypes: { kind: 'list' },
  userQuotaBytes: bytes,
  userQuotaFiles: count,
  projectQuotaBytes: bytes,
  projectQuotaFiles: count,
  accessTokenLifetimeSeconds: {
    kind: 'number',
    unit: 'seconds',
    min: minTokenLifetimeSeconds,
    max: maxTokenLifetimeSeconds,
  },
  adminRoles: { kind: 'list' },
  renditions: { kind: 'choice' },
  renditionPresets: { kind: 'table' },
  requireVerifiedEmail: { kind: 'flag' },
  magicLink: { kind: 'flag' },
  accountLinkUrl: { kind: 'text' },
  mailTemplates: { kind: 'table' },
  mailDailyBudget: count,
  downloads: { kind: 'choice' },
  presignedDownloadMaxSeconds: { kind: 'number', unit: 'seconds', min: 1, max: maxPresignedDownloadSeconds },
  maxFolderOperationFiles: { kind: 'number', unit: 'count', min: 1, max: maxFolderOperationFilesLimit },
  oauth: { kind: 'table' },
  trustedIssuers: { kind: 'table' },
  oauthLinkByEmail: { kind: 'flag' },
  versionsKept: { kind: 'number', unit: 'count', min: 0, max: maxVersionsKept },
  versionRetentionDays: { kind: 'number', unit: 'days', min: 0, max: maxRetentionDays },
  trashRetentionDays: { kind: 'number', unit: 'days', min: 0, max: maxRetentionDays },
  videoRenditions: { kind: 'choice' },
  maxVideoSeconds: { kind: 'number', unit: 'seconds', min: 1, max: maxVideoSecondsLimit },
  maxArchiveFiles: { kind: 'number', unit: 'count', min: 1, max: maxArchiveFilesLimit },
  maxArchiveBytes: { kind: 'number', unit: 'bytes', min: 1, max: Number.MAX_SAFE_INTEGER },
  requireMfa: { kind: 'flag' },
  passkeyRpId: { kind: 'text' },
  selfDeletion: { kind: 'flag' },
  scan: { kind: 'choice' },
  scanOversize: { kind: 'choice' },
  resumableAutoVerify: { kind: 'flag' },
  admissionUrl: { kind: 'text' },
  // Shown as (set), never itself (settings-view.ts); typing a new whsec_… replaces it.
  admissionSecret: { kind: 'text' },
  admissionTimeoutSeconds: { kind: 'number', unit: 'seconds', min: 1, max: 60 },
  admissionFailOpen: { kind: 'flag' },
};

/** The defaults of one project: the domain's, with its own admin role (projects.admin_role). */
export function projectDefaults(project: Pick<Project, 'adminRole'>): ProjectSettings {
  return { ...defaultProjectSettings, adminRoles: [project.adminRole] };
}

/** Every setting of the project in the domain's order, with what the console needs to edit it. */
export function toSettingsSchema(project: Pick<Project, 'adminRole'>): SettingSchema[] {
  const defaults = projectDefaults(project);
  return projectSettingNames.map((name) => {
    const definition = projectSettingDefinitions[name];
    const control = controls[name];
    return {
      name,
      description: definition.description,
      default: defaults[name],
      nullable: definition.isValid(null),
      ...control,
      ...(control.kind === 'choice' && { choices: choicesOf(definition.description) }),
    };
  });
}

/**
 * The values a choice setting names at the head of its help line (`open | closed: whether…`),
 * the line `coffer project set --help` prints: one list, not a copy of it.
 */
export function choicesOf(description: string): string[] {
  const head = /^([\w-]+(?: \| [\w-]+)+):/.exec(description);
  return head ? head[1]!.split(' | ') : [];
}
