import { maskedSecret } from '../admission/admission-settings.ts';
import { maskOAuthTable } from './oauth-provider-settings.ts';
import type { ProjectSettings } from './project-settings.ts';

/** A project's settings as operators see them (CLI, console): every secret masked. */
export function toSettingsView(settings: ProjectSettings): ProjectSettings {
  return {
    ...settings,
    oauth: maskOAuthTable(settings.oauth),
    admissionSecret: settings.admissionSecret === null ? null : maskedSecret,
  };
}
