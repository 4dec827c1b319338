import { validationFailed } from '../../errors/errors.ts';
import {
  type AdmissionSettings,
  admissionSettingDefinitions,
  defaultAdmissionSettings,
} from '../admission/admission-settings.ts';
import { isMailTemplateTable, type MailTemplateTable } from '../mail/mail-template-settings.ts';
import { isPresetTable, type PresetTable } from '../renditions/rendition-presets.ts';
import {
  defaultResumableSettings,
  type ResumableSettings,
  resumableSettingDefinitions,
} from '../resumable/resumable-settings.ts';
import {
  type AccountControlSettings,
  accountControlSettingDefinitions,
  defaultAccountControlSettings,
} from './account-control-settings.ts';
import { isAccountLinkUrl, parseAccountLinkUrl } from './account-link-url.ts';
import {
  maxArchiveFilesLimit,
  maxFolderOperationFilesLimit,
  maxPresignedDownloadSeconds,
  maxRetentionDays,
  maxVersionsKept,
  maxVideoSecondsLimit,
} from './setting-bounds.ts';
import {
  booleanSetting,
  countSetting,
  isTokenLifetime,
  maxTokenLifetimeSeconds,
  minTokenLifetimeSeconds,
  oneOf,
  parseContentTypePatterns,
  parseRoleNames,
  parseTokenLifetime,
  parseWholeNumber,
  requiredSizeSetting,
  type SettingDefinition,
  sizeSetting,
  wholeNumberSetting,
} from './setting-parsers.ts';
import { defaultSignInSettings, type SignInSettings, signInSettingDefinitions } from './sign-in-settings.ts';

/**
 * What an operator may tune per project (`coffer project set <project> name=value…`). Stored as
 * one JSON object in `projects.settings`, so that a new setting is one entry below and no
 * migration; a stored value that no longer parses (or an unknown name) falls back to its
 * default instead of failing every request of the project.
 */
export type ProjectSettings = CoreSettings &
  SignInSettings &
  AccountControlSettings &
  AdmissionSettings &
  ResumableSettings;

/** The settings of the first waves; later groups have modules of their own. */
type CoreSettings = {
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
  /** Whether login (password, magic link) refuses accounts whose address is not verified (403 EMAIL_NOT_VERIFIED). */
  requireVerifiedEmail: boolean;
  /** Whether `POST /api/v1/auth/magic-link` signs users in by email. */
  magicLink: boolean;
  /**
   * The app's page that mail links open, `{purpose}` replaced by reset-password, verify-email or
   * magic-link, the token appended as `#token=…`; its origin must be one of the project's allowed
   * origins. null: Coffer's own pages at `/account/<purpose>`.
   */
  accountLinkUrl: string | null;
  /** The project's own mail texts, set as `mailTemplates.<purpose>.<subject|text|html>=…`. */
  mailTemplates: MailTemplateTable;
  /** Account mails the project may send a day (all addresses together); null: no budget. */
  mailDailyBudget: number | null;
  /**
   * How download links of a store that can sign its own URLs (S3) are served: `gateway` through
   * Coffer (revoking and unsharing stop them at once), `presigned` straight from the store
   * (fastest; a revocation waits for the link to expire, so presignedDownloadMaxSeconds caps it).
   */
  downloads: 'gateway' | 'presigned';
  /** The longest lifetime of a presigned download link, in seconds. */
  presignedDownloadMaxSeconds: number;
  /**
   * The most files one folder move or delete changes (issue 36): each is one transaction, so
   * this bounds how long it holds its locks and how many events it writes at once.
   */
  maxFolderOperationFiles: number;
  /** The most non-current versions a file keeps (issue 38); the oldest beyond are pruned. 0: none. */
  versionsKept: number;
  /** Days a non-current version is kept after another became current; 0: pruned at once. */
  versionRetentionDays: number;
  /** Days a deleted file stays in the trash before it is purged; 0: deletes purge at once (no trash). */
  trashRetentionDays: number;
  /** Whether videos get renditions (poster frames, issue 39); off: 415, their metadata still probed. */
  videoRenditions: 'on' | 'off';
  /** The longest video that gets a poster (and placeholder); longer ones are probed only. */
  maxVideoSeconds: number;
  /** The most files one archive (`POST /api/v1/archives`, issue 40) may hold. */
  maxArchiveFiles: number;
  /** The most bytes of files one archive may hold (its ZIP is a little larger). */
  maxArchiveBytes: number;
};

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
  requireVerifiedEmail: false,
  magicLink: false,
  accountLinkUrl: null,
  mailTemplates: {},
  mailDailyBudget: 2000,
  downloads: 'gateway',
  presignedDownloadMaxSeconds: 300,
  maxFolderOperationFiles: 100_000,
  versionsKept: 10,
  versionRetentionDays: 30,
  trashRetentionDays: 30,
  videoRenditions: 'on',
  maxVideoSeconds: 14_400,
  maxArchiveFiles: 10_000,
  maxArchiveBytes: 10 * 1024 ** 3,
  ...defaultSignInSettings,
  ...defaultAccountControlSettings,
  ...defaultAdmissionSettings,
  ...defaultResumableSettings,
});

export const projectSettingDefinitions: Record<keyof ProjectSettings, SettingDefinition> = {
  signup: {
    description: 'open | closed: whether users may sign up themselves',
    parse: (text, name) => oneOf(text, name, ['open', 'closed'] as const),
    isValid: (value) => value === 'open' || value === 'closed',
  },
  anonymousSignup: booleanSetting('whether anonymous accounts (role "anonymous") may be created'),
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
  requireVerifiedEmail: booleanSetting('whether login refuses accounts whose email address is not verified'),
  magicLink: booleanSetting('whether users may sign in with a link sent by email'),
  accountLinkUrl: {
    description:
      "the app's page mail links open ({purpose}: reset-password, verify-email, magic-link, change-email, revert-email; #token=… is appended); its origin must be allowed; none: Coffer's /account pages",
    parse: parseAccountLinkUrl,
    isValid: (value) => value === null || isAccountLinkUrl(value),
  },
  mailTemplates: {
    description:
      'set one at a time as mailTemplates.<passwordReset|emailVerification|magicLink|emailChange|emailChanged>.<subject|text|html>=…; {{link}}, {{project}}, {{email}}, {{minutes}}, {{newEmail}} are replaced; an empty value restores the default',
    parse: (_text, name) => {
      throw validationFailed(`${name} is set one part at a time: mailTemplates.passwordReset.subject=…`);
    },
    isValid: isMailTemplateTable,
  },
  mailDailyBudget: countSetting('account mails (reset, verification, magic link) the project may send a day'),
  downloads: {
    description:
      'gateway | presigned: download links through Coffer (revocation immediate) or, on S3, presigned by the store (fastest; revocation waits for expiry)',
    parse: (text, name) => oneOf(text, name, ['gateway', 'presigned'] as const),
    isValid: (value) => value === 'gateway' || value === 'presigned',
  },
  presignedDownloadMaxSeconds: {
    description: `the longest lifetime of a presigned download link, 1 to ${maxPresignedDownloadSeconds} seconds`,
    parse: (text, name) => parseWholeNumber(text, name, 1, maxPresignedDownloadSeconds),
    isValid: (value) =>
      Number.isSafeInteger(value) &&
      (value as number) >= 1 &&
      (value as number) <= maxPresignedDownloadSeconds,
  },
  maxFolderOperationFiles: {
    description: `the most files one folder move or delete may change, 1 to ${maxFolderOperationFilesLimit}`,
    parse: (text, name) => parseWholeNumber(text, name, 1, maxFolderOperationFilesLimit),
    isValid: (value) =>
      Number.isSafeInteger(value) &&
      (value as number) >= 1 &&
      (value as number) <= maxFolderOperationFilesLimit,
  },
  versionsKept: wholeNumberSetting(
    `the most earlier versions a file keeps (the oldest beyond are pruned), 0 to ${maxVersionsKept}`,
    maxVersionsKept,
  ),
  versionRetentionDays: wholeNumberSetting(
    `days an earlier version is kept once replaced, 0 to ${maxRetentionDays}`,
    maxRetentionDays,
  ),
  trashRetentionDays: wholeNumberSetting(
    `days a deleted file stays in the trash, 0 to ${maxRetentionDays} (0: deletes are final at once)`,
    maxRetentionDays,
  ),
  videoRenditions: {
    description:
      'on | off: whether videos get renditions (poster frames); off answers 415, their metadata is still probed',
    parse: (text, name) => oneOf(text, name, ['on', 'off'] as const),
    isValid: (value) => value === 'on' || value === 'off',
  },
  maxVideoSeconds: wholeNumberSetting(
    `the longest video, in seconds, that gets a poster frame, 1 to ${maxVideoSecondsLimit} (longer ones are probed only)`,
    maxVideoSecondsLimit,
    1,
  ),
  maxArchiveFiles: wholeNumberSetting(
    `the most files one zip archive may hold, 1 to ${maxArchiveFilesLimit}`,
    maxArchiveFilesLimit,
    1,
  ),
  maxArchiveBytes: requiredSizeSetting('the most bytes of files one zip archive may hold'),
  ...signInSettingDefinitions,
  ...accountControlSettingDefinitions,
  ...admissionSettingDefinitions,
  ...resumableSettingDefinitions,
};

export const projectSettingNames = Object.keys(projectSettingDefinitions) as (keyof ProjectSettings)[];
