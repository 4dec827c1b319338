import { validationFailed } from '../../errors/errors.ts';

/** Spec 8: the default lifetime of a download link. */
export const defaultDownloadTtlSeconds = 900;

/**
 * Parses the expiresInSeconds query value. Only plain decimal digits count: `1e3`, `0x10`,
 * ` 60`, `+60` and `60.0` are refused rather than guessed at. Absent means the default.
 */
export function parseExpiresInSeconds(text: string | undefined, maxSeconds: number): number {
  if (text === undefined) return Math.min(defaultDownloadTtlSeconds, maxSeconds);
  if (!/^\d{1,10}$/.test(text)) {
    throw validationFailed('expiresInSeconds must be a whole number of seconds written in digits');
  }
  const seconds = Number(text);
  if (seconds < 1 || seconds > maxSeconds) {
    throw validationFailed(`expiresInSeconds must be between 1 and ${maxSeconds}`);
  }
  return seconds;
}
