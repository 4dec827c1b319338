/** The longest wait a receiver may ask for; a larger Retry-After is cut to this. */
export const maxRetryAfterSeconds = 24 * 60 * 60;

/**
 * The wait that a `Retry-After` header asks for, in whole seconds from `now`, between 0 and a
 * day; undefined when absent or unreadable. RFC 9110 §10.2.3: `Retry-After = HTTP-date /
 * delay-seconds`.
 */
export function toRetryAfterSeconds(header: string | undefined, now: Date): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text), maxRetryAfterSeconds);
  // An HTTP-date ends in GMT; Date.parse alone would also take "1.5" or "2030" as dates.
  const at = /GMT$/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), maxRetryAfterSeconds);
}
