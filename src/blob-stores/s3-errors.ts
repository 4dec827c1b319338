import { isAppError } from '../errors/app-error.ts';
import { unavailable } from '../errors/errors.ts';
import { networkErrorCodes } from '../errors/network-errors.ts';

type SdkError = { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };

// Failures to reach the store at all (no HTTP answer): retrying later may work.
const NETWORK_FAILURES = new Set([...networkErrorCodes, 'TimeoutError', 'RequestTimeout']);

/** Whether S3 answered that the object (or bucket) does not exist. */
export function isS3NotFound(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as SdkError;
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}

/** Whether S3 refused a conditional request (If-Match, x-amz-copy-source-if-match). */
export function isS3PreconditionFailed(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as SdkError;
  return name === 'PreconditionFailed' || $metadata?.httpStatusCode === 412;
}

/** Network failures, throttling and 5xx become UNAVAILABLE (503); anything else stays as it is. */
export function toBlobStoreError(error: unknown): unknown {
  if (isAppError(error)) return error;
  const { name, code, $metadata } = (error ?? {}) as SdkError;
  const status = $metadata?.httpStatusCode;
  const isNetworkFailure = NETWORK_FAILURES.has(code ?? '') || NETWORK_FAILURES.has(name ?? '');
  if (isNetworkFailure || (status !== undefined && (status >= 500 || status === 429))) {
    return unavailable('blob store', error);
  }
  return error;
}
