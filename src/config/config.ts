import path from 'node:path';
import { parseS3StorageUrl } from '../blob-stores/s3-storage-url.ts';
import { ConfigError } from './config-error.ts';
import { describeValue, parseSetting, type SettingSource } from './parse-setting.ts';
import { readSecretFile } from './secret-files.ts';
import type { Setting } from './setting.ts';
import { assertMailSettings } from './settings/mail-settings.ts';
import { assertScanSettings } from './settings/scan-settings.ts';
import { settings } from './settings.ts';
import type { TrustedProxies } from './trusted-proxies.ts';

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
  trustProxy: TrustedProxies;
  workers: number;
  maxFileSizeBytes: number;
  uploadLinkTtlSeconds: number;
  maxLinkTtlSeconds: number;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  refreshTokenReuseGraceSeconds: number;
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
  emailSharesPerUserPerHour: number;
  databaseBusyTimeoutMs: number;
  databaseStartTimeoutSeconds: number;
  uploadMode: 'gateway' | 'direct';
  gcIntervalSeconds: number;
  gcGraceSeconds: number;
  unverifiedGraceSeconds: number;
  unverifiedSweepIntervalSeconds: number;
  resumableExpirySeconds: number;
  resumableMaxAgeSeconds: number;
  resumableSweepIntervalSeconds: number;
  renditionMaxPixels: number;
  renditionMaxSourceBytes: number;
  renditionMaxMemoryBytes: number;
  renditionConcurrency: number;
  renditionQueueLength: number;
  renditionTimeoutSeconds: number;
  newRenditionsPerUserPerHour: number;
  ffmpegPath: string;
  ffprobePath: string;
  heifDecoderPath: string | undefined;
  webhookRetrySeconds: string;
  webhookTimeoutSeconds: number;
  webhookAllowPrivate: boolean;
  webhookConcurrency: number;
  webhookConcurrencyPerEndpoint: number;
  webhookTestsPerHour: number;
  eventRetentionDays: number;
  eventDeliveryIntervalMs: number;
  eventStreamsPerUser: number;
  eventStreamsPerAddress: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailRetrySeconds: string;
  mailTimeoutSeconds: number;
  mailDeliveryIntervalMs: number;
  scanUrl: string | undefined;
  scanFailOpen: boolean;
  scanConcurrency: number;
  scanMaxBytes: number;
  scanTimeoutSeconds: number;
  passwordResetTtlSeconds: number;
  emailVerificationTtlSeconds: number;
  magicLinkTtlSeconds: number;
  accountMailsPerClientPerHour: number;
  oauthAllowPrivate: boolean;
  oauthTimeoutSeconds: number;
  oauthFlowsPerAddressPerHour: number;
  mfaKeys: string | undefined;
  databasePoolMax: number;
  databasePreparedStatements: boolean;
  logLevel: string;
  logFormat: 'auto' | 'json' | 'pretty';
  metricsToken: string | undefined;
}>;

/** Hard ceiling on link lifetimes, whatever the configuration says (7 days, as S3's presigned URLs). */
export const absoluteMaxLinkTtlSeconds = 604800;

type Raw = Record<string, string | boolean | undefined>;

/**
 * Builds the configuration from command-line flags (already parsed, keyed by flag name) over
 * environment variables over defaults. A bad value throws a ConfigError naming the flag or
 * variable that holds it; files are checked at start, where they are used. A secret-bearing
 * setting may come from the file its `COFFER_X_FILE` variable names (secret-files.ts).
 */
export function loadConfig(flags: Raw, env: NodeJS.ProcessEnv): Config {
  const values: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  for (const [name, setting] of Object.entries(settings as Record<string, Setting>)) {
    const fromFlag = setting.flag ? flags[setting.flag] : undefined;
    const fromFile = fromFlag === undefined ? readSecretFile(setting, env) : undefined;
    const raw = fromFlag ?? fromFile?.raw ?? env[setting.env];
    // The name the operator used; for a default, the flag (or the variable of a setting without one).
    sources[name] =
      fromFile?.source ??
      (setting.flag && (fromFlag !== undefined || raw === undefined) ? `--${setting.flag}` : setting.env);
    values[name] = raw === undefined ? setting.defaultValue : parseSetting(setting, sources[name], raw);
  }
  const dataDir = values.dataDir as string;
  values.databaseUrl ??= `sqlite:${path.join(dataDir, 'coffer.db')}`;
  values.storageUrl ??= `file:${path.join(dataDir, 'blobs')}`;
  assertStoreUrls(values, sources);
  if (Boolean(values.tlsCert) !== Boolean(values.tlsKey)) {
    const [given, missing] = values.tlsCert
      ? (['tlsCert', 'tlsKey'] as const)
      : (['tlsKey', 'tlsCert'] as const);
    throw new ConfigError(
      `${describeValue(settings[given], sources[given]!, values[given])}: needs ${toNames(missing)} as well`,
    );
  }
  // The grace period protects a put that has not committed yet: it must outlast any upload.
  values.gcGraceSeconds ??= (values.requestTimeoutSeconds as number) + 3600;
  if ((values.gcGraceSeconds as number) <= (values.requestTimeoutSeconds as number)) {
    throw new Error('COFFER_GC_GRACE_SECONDS must be longer than COFFER_REQUEST_TIMEOUT_SECONDS');
  }
  values.maxLinkTtlSeconds = Math.min(values.maxLinkTtlSeconds as number, absoluteMaxLinkTtlSeconds);
  if (parseRetrySchedule(values.webhookRetrySeconds as string) === undefined)
    throw new ConfigError(
      `${describeValue(settings.webhookRetrySeconds, sources.webhookRetrySeconds!, values.webhookRetrySeconds)}: must be whole seconds separated by commas, such as 1,2,5`,
    );
  assertMailSettings(values, (text) => parseRetrySchedule(text) !== undefined);
  assertScanSettings(values);
  return Object.freeze(values) as Config;
}

/** COFFER_WEBHOOK_RETRY_SECONDS → the delays, or undefined when it is not 1 to 50 whole seconds. */
export function parseRetrySchedule(text: string): number[] | undefined {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 50 || !parts.every((part) => /^\d{1,7}$/.test(part)))
    return undefined;
  return parts.map(Number);
}

/** Only the stores Coffer has; the S3 URL's own parameters are checked here too, not at first use. */
function assertStoreUrls(values: Record<string, unknown>, sources: Record<string, SettingSource>): void {
  const databaseUrl = values.databaseUrl as string;
  if (!/^(sqlite:.|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    // Only the scheme: the rest may hold a password.
    throw new ConfigError(
      `${sources.databaseUrl}: unsupported database ${JSON.stringify(databaseUrl.split(':')[0])} (use sqlite:<path> or postgres://…)`,
    );
  }
  const storageUrl = values.storageUrl as string;
  const storage = describeValue(settings.storageUrl, sources.storageUrl!, storageUrl);
  if (storageUrl.startsWith('s3:')) {
    try {
      parseS3StorageUrl(storageUrl);
    } catch (error) {
      throw new ConfigError(`${storage}: ${(error as Error).message}`);
    }
  } else if (storageUrl !== 'memory:' && !/^file:./.test(storageUrl)) {
    throw new ConfigError(`${storage}: unsupported store (use file:<dir> or s3://bucket?…)`);
  }
  if (values.uploadMode === 'direct' && !storageUrl.startsWith('s3:')) {
    throw new ConfigError(
      `${describeValue(settings.uploadMode, sources.uploadMode!, 'direct')}: needs an S3 store (${toNames('storageUrl')} s3://…)`,
    );
  }
}

function toNames(name: string): string {
  const setting = (settings as Record<string, Setting>)[name]!;
  return setting.flag ? `--${setting.flag} (${setting.env})` : setting.env;
}
