import { validationFailed } from '../../errors/errors.ts';
import {
  booleanSetting,
  oneOf,
  parseWholeNumber,
  type SettingDefinition,
} from '../identity/setting-parsers.ts';

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
  /** The app's admission hook (issue 42, item 3): asked before every version becomes verified; null: none. */
  admissionUrl: string | null;
  /** The hook's Standard Webhooks signing secret (`whsec_` + base64); secret: views show `(set)`. */
  admissionSecret: string | null;
  /** The hook's whole budget: connect, send and read the answer. */
  admissionTimeoutSeconds: number;
  /** A hook that cannot answer admits the bytes (`meta.admission.result` "skipped"); false: 503. */
  admissionFailOpen: boolean;
};

export const minAdmissionTimeoutSeconds = 1;
export const maxAdmissionTimeoutSeconds = 60;
const maxUrlLength = 2048;
/** Standard Webhooks: `whsec_` + base64 of 24 to 64 bytes of key. */
const secretPattern = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export const defaultAdmissionSettings: Readonly<AdmissionSettings> = Object.freeze({
  scan: 'on',
  scanOversize: 'refuse',
  admissionUrl: null,
  admissionSecret: null,
  admissionTimeoutSeconds: 10,
  admissionFailOpen: false,
});

/** What settings views (CLI, console) show of the admission secret: whether it is set, never itself. */
export const maskedSecret = '(set)';

export function isAdmissionUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > maxUrlLength) return false;
  const url = URL.parse(value);
  return (
    url !== null &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === ''
  );
}

export function isAdmissionSecret(value: unknown): value is string {
  if (typeof value !== 'string' || !secretPattern.test(value)) return false;
  const bytes = Buffer.from(value.slice('whsec_'.length), 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

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
  admissionUrl: {
    description:
      "the app's admission hook, an absolute http(s) URL POSTed a signed file.admission before every version becomes verified, or none",
    parse: (text, name) => {
      if (text.toLowerCase() === 'none' || text === '') return null;
      if (!isAdmissionUrl(text))
        throw validationFailed(`${name} must be an absolute http(s) URL without credentials, or none`);
      return text;
    },
    isValid: (value) => value === null || isAdmissionUrl(value),
  },
  admissionSecret: {
    description:
      "the admission hook's Standard Webhooks signing secret (whsec_ + base64 of 24 to 64 bytes), or none; shown only as (set)",
    parse: (text, name) => {
      if (text.toLowerCase() === 'none' || text === '') return null;
      if (!isAdmissionSecret(text))
        throw validationFailed(`${name} must be whsec_ followed by the base64 of 24 to 64 bytes, or none`);
      return text;
    },
    isValid: (value) => value === null || isAdmissionSecret(value),
  },
  admissionTimeoutSeconds: {
    description: `${minAdmissionTimeoutSeconds}–${maxAdmissionTimeoutSeconds}: the admission hook's whole budget in seconds (default 10)`,
    parse: (text, name) =>
      parseWholeNumber(text, name, minAdmissionTimeoutSeconds, maxAdmissionTimeoutSeconds),
    isValid: (value) =>
      Number.isSafeInteger(value) &&
      (value as number) >= minAdmissionTimeoutSeconds &&
      (value as number) <= maxAdmissionTimeoutSeconds,
  },
  admissionFailOpen: booleanSetting(
    'an admission hook that cannot answer admits the upload (result skipped) instead of 503 ADMISSION_UNAVAILABLE',
  ),
};
