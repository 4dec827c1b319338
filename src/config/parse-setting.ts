import { isIP } from 'node:net';
import { ConfigError } from './config-error.ts';
import type { Setting } from './setting.ts';
import { maxProxyHops, toTrustedProxies } from './trusted-proxies.ts';

/** Where a value came from: `--port` for a flag, `COFFER_PORT` for an environment variable. */
export type SettingSource = string;

/**
 * Parses one raw value by its setting's kind and bounds. Throws a ConfigError whose one line
 * starts with the flag or variable and the value given (`--port 99999: …`).
 */
export function parseSetting(setting: Setting, source: SettingSource, raw: string | boolean): unknown {
  const fail = (problem: string, options: { hideValue?: boolean } = {}): never => {
    throw new ConfigError(`${options.hideValue ? source : describeValue(setting, source, raw)}: ${problem}`);
  };
  if (setting.kind === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off|)$/i.test(raw)) return false;
    return fail('must be true or false');
  }
  if (setting.kind === 'proxies') {
    return (
      toTrustedProxies(raw) ??
      fail(
        `must be a number of proxy hops (1 to ${maxProxyHops}) or a comma-separated list of proxy addresses or networks (10.0.0.5,10.1.0.0/16)`,
      )
    );
  }
  if (typeof raw !== 'string' || raw === '') return fail('needs a value');
  switch (setting.kind) {
    case 'integer': {
      const min = setting.min ?? 0;
      const range = setting.max === undefined ? `≥ ${min}` : `from ${min} to ${setting.max}`;
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < min || value > (setting.max ?? Number.MAX_SAFE_INTEGER))
        return fail(`must be a whole number ${range}`);
      return value;
    }
    case 'base-url':
      return toBaseUrl(raw, fail);
    case 'host':
      // What listen() takes: an IP address without brackets, or a DNS name.
      if (
        isIP(raw) === 0 &&
        !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw)
      )
        return fail('must be an IP address (such as 127.0.0.1, 0.0.0.0 or ::) or a host name');
      return raw;
    default:
      if (setting.choices && !setting.choices.includes(raw))
        return fail(`must be one of ${setting.choices.join(', ')}`);
      return raw;
  }
}

/** `--port 99999` or `COFFER_PORT=99999`; only the name for a secret, shortened when long. */
export function describeValue(setting: Setting, source: SettingSource, raw: unknown): string {
  if (setting.secret || typeof raw !== 'string') return source;
  const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
  const quoted = /^[\w.:/@+,%~=-]+$/.test(shown) ? shown : JSON.stringify(shown);
  return source.startsWith('--') ? `${source} ${quoted}` : `${source}=${quoted}`;
}

/**
 * An absolute http(s) URL that links are built on: anything else builds links no client can
 * follow. A query or fragment would end up inside every link, credentials in every log line.
 */
function toBaseUrl(raw: string, fail: (problem: string, options?: { hideValue?: boolean }) => never): string {
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return fail('must be an absolute http(s) URL, such as https://files.example.com');
  if (raw.includes('?') || raw.includes('#')) return fail('must have no query (?) and no fragment (#)');
  if (url.username || url.password)
    return fail('must not carry a user name or password', { hideValue: true });
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
