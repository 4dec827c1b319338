import type { Setting } from './setting.ts';
import { accountSettings } from './settings/account-settings.ts';
import { blobSettings } from './settings/blob-settings.ts';
import { databaseTimeoutSettings } from './settings/database-timeout-settings.ts';
import { eventSettings } from './settings/event-settings.ts';
import { linkSettings } from './settings/link-settings.ts';
import { listenSettings } from './settings/listen-settings.ts';
import { mailSettings } from './settings/mail-settings.ts';
import { mediaSettings } from './settings/media-settings.ts';
import { observabilitySettings } from './settings/observability-settings.ts';
import { postgresSettings } from './settings/postgres-settings.ts';
import { rateLimitSettings } from './settings/rate-limit-settings.ts';
import { renditionSettings } from './settings/rendition-settings.ts';
import { requestLimitSettings } from './settings/request-limit-settings.ts';
import { resumableSettings } from './settings/resumable-settings.ts';
import { scanSettings } from './settings/scan-settings.ts';
import { signInSettings } from './settings/sign-in-settings.ts';
import { storeSettings } from './settings/store-settings.ts';
import { tokenSettings } from './settings/token-settings.ts';

/**
 * Every setting in one table: its type, default, environment variable, command-line flag and
 * one line of documentation. docs/config.md and the README table list the same settings
 * (test/docs/config-doc.test.ts checks it). Each area's settings live in a module of
 * settings/ (a new capability adds its own module and one line here); the order of the lines
 * is the order of the documentation's rows.
 */
export const settings = {
  ...storeSettings,
  ...listenSettings,
  ...linkSettings,
  ...tokenSettings,
  ...requestLimitSettings,
  ...rateLimitSettings,
  ...databaseTimeoutSettings,
  ...blobSettings,
  ...resumableSettings,
  ...scanSettings,
  ...renditionSettings,
  ...mediaSettings,
  ...eventSettings,
  ...mailSettings,
  ...accountSettings,
  ...signInSettings,
  ...postgresSettings,
  ...observabilitySettings,
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;
