import { CofferError } from './errors.ts';

/** What the network or the server may get right on a second try: no answer, 5xx, or 423 (tus: locked). */
export function isRetryable(error: CofferError): boolean {
  return error.status === 0 || error.status === 423 || error.status >= 500;
}

/** A failure to get any answer, as a CofferError (an abort is passed on as it is). */
export function toNetworkError(error: unknown, message: string, signal?: AbortSignal): unknown {
  if (error instanceof CofferError || signal?.aborted) return error;
  return new CofferError(0, 'NETWORK_ERROR', message, { cause: error });
}

/**
 * The wait before try `attempt` (1, 2, …): 250 ms doubling, or what the server's Retry-After
 * asks (seconds or an HTTP date), at most a minute either way.
 */
export function retryDelayMs(attempt: number, retryAfter?: string | null): number {
  const asked = retryAfter ? parseRetryAfter(retryAfter) : undefined;
  return Math.min(asked ?? 250 * 2 ** (attempt - 1), 60_000);
}

function parseRetryAfter(value: string): number | undefined {
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
