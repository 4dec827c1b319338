import { AddressRefusedError } from './address-refused-error.ts';

const textByCode: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed (temporary DNS failure)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

/** A short, stable text for a failed attempt's `error`: "connection refused", "refused: …". */
export function toNetworkErrorText(error: unknown): string {
  if (error instanceof AddressRefusedError) return error.message;
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const text = textByCode[code];
  if (text) return text;
  if (code.startsWith('HPE_')) return `invalid HTTP answer (${code}: ${error.message})`;
  if (/^(ERR_TLS_|ERR_SSL_|UNABLE_TO_)|CERT/.test(code)) return `TLS failed: ${error.message}`;
  return error.message || code || error.name;
}
