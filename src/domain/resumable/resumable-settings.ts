import { booleanSetting, type SettingDefinition } from '../identity/setting-parsers.ts';

/**
 * The project settings of resumable uploads (issue 43): a group of its own, spread into
 * project-settings.ts.
 */
export type ResumableSettings = {
  /**
   * Whether every tus upload is verified when its last byte lands, as if created with
   * `verify=true` in Upload-Metadata (auto-verify.ts): stock clients (Uppy) need no verify call.
   */
  resumableAutoVerify: boolean;
};

export const defaultResumableSettings: Readonly<ResumableSettings> = Object.freeze({
  resumableAutoVerify: false,
});

export const resumableSettingDefinitions: Record<keyof ResumableSettings, SettingDefinition> = {
  resumableAutoVerify: booleanSetting(
    'whether a resumable (tus) upload is verified when its last byte lands, as with Upload-Metadata verify=true',
  ),
};
