import { oneOf, type SettingDefinition } from '../identity/setting-parsers.ts';

/**
 * The project settings of the admission gate (issue 42): what happens between an upload's last
 * byte and the file becoming readable. A group of its own, spread into project-settings.ts.
 */
export type AdmissionSettings = {
  /** Whether uploads are scanned where the server has a scanner (COFFER_SCAN_URL); off: never. */
  scan: 'on' | 'off';
  /**
   * A file larger than the scanner's stream limit: `refuse` answers 413, `allow` admits it
   * unscanned (`meta.scan.result` "skipped").
   */
  scanOversize: 'refuse' | 'allow';
};

export const defaultAdmissionSettings: Readonly<AdmissionSettings> = Object.freeze({
  scan: 'on',
  scanOversize: 'refuse',
});

export const admissionSettingDefinitions: Record<keyof AdmissionSettings, SettingDefinition> = {
  scan: {
    description:
      'on | off: whether uploads are scanned for malware where the server has a scanner (COFFER_SCAN_URL)',
    parse: (text, name) => oneOf(text, name, ['on', 'off'] as const),
    isValid: (value) => value === 'on' || value === 'off',
  },
  scanOversize: {
    description:
      "refuse | allow: a file larger than the scanner's stream limit is refused (413) or admitted unscanned (scan result skipped)",
    parse: (text, name) => oneOf(text, name, ['refuse', 'allow'] as const),
    isValid: (value) => value === 'refuse' || value === 'allow',
  },
};
