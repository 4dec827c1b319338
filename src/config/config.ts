import path from 'node:path';
import { type Setting, settings } from './settings.ts';

/** The frozen configuration one process runs with; built once by loadConfig in the entry point. */
export type Config = Readonly<{
  dataDir: string;
  databaseUrl: string;
  storageUrl: string;
  host: string;
  port: number;
  publicUrl: string | undefined;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  trustProxy: boolean;
  workers: number;
  maxFileSizeBytes: number;
  uploadLinkTtlSeconds: number;
  maxLinkTtlSeconds: number;
  tokenTtlSeconds: number;
  jsonBodyLimitBytes: number;
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
  idleTimeoutSeconds: number;
  loginFailuresPerAccountAddressPerHour: number;
  loginFailuresPerAccountPerHour: number;
  loginFailuresPerAddressPerHour: number;
  signupsPerAddressPerHour: number;
  signupsPerAppPerHour: number;
  databaseBusyTimeoutMs: number;
  databaseStartTimeoutSeconds: number;
  uploadMode: 'gateway' | 'direct';
  gcIntervalSeconds: number;
  gcGraceSeconds: number;
  databasePoolMax: number;
  logLevel: string;
}>;

/** Hard ceiling on link lifetimes, whatever the configuration says (7 days, as S3's presigned URLs). */
export const absoluteMaxLinkTtlSeconds = 604800;

type Raw = Record<string, string | boolean | undefined>;

/**
 * Builds the configuration from command-line flags (already parsed, keyed by flag name) over
 * environment variables over defaults. Throws an Error naming the setting on a bad value.
 */
export function loadConfig(flags: Raw, env: NodeJS.ProcessEnv): Config {
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings as Record<string, Setting>)) {
    const raw = (setting.flag ? flags[setting.flag] : undefined) ?? env[setting.env];
    values[name] = raw === undefined ? setting.defaultValue : parseSetting(name, setting, raw);
  }
  const dataDir = values.dataDir as string;
  values.databaseUrl ??= `sqlite:${path.join(dataDir, 'coffer.db')}`;
  values.storageUrl ??= `file:${path.join(dataDir, 'blobs')}`;
  if (Boolean(values.tlsCert) !== Boolean(values.tlsKey)) {
    throw new Error('--tls-cert and --tls-key go together');
  }
  if (values.uploadMode !== 'gateway' && values.uploadMode !== 'direct') {
    throw new Error(`COFFER_UPLOAD_MODE must be gateway or direct, not ${JSON.stringify(values.uploadMode)}`);
  }
  // The grace period protects a put that has not committed yet: it must outlast any upload.
  values.gcGraceSeconds ??= (values.requestTimeoutSeconds as number) + 3600;
  if ((values.gcGraceSeconds as number) <= (values.requestTimeoutSeconds as number)) {
    throw new Error('COFFER_GC_GRACE_SECONDS must be longer than COFFER_REQUEST_TIMEOUT_SECONDS');
  }
  values.maxLinkTtlSeconds = Math.min(values.maxLinkTtlSeconds as number, absoluteMaxLinkTtlSeconds);
  return Object.freeze(values) as Config;
}

function parseSetting(name: string, setting: Setting, raw: string | boolean) {
  const label = setting.flag ? `--${setting.flag} / ${setting.env}` : setting.env;
  switch (setting.kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off|)$/i.test(raw)) return false;
      throw new Error(`${label} must be true or false, not ${JSON.stringify(raw)}`);
    case 'integer': {
      const text = String(raw);
      const min = setting.min ?? 0;
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
        throw new Error(`${label} must be a whole number ≥ ${min}, not ${JSON.stringify(text)}`);
      }
      return Number(text);
    }
    default:
      if (typeof raw !== 'string' || raw === '') throw new Error(`${label} needs a value (${name})`);
      return raw;
  }
}
