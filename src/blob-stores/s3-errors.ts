import { isAppError } from '../errors/app-error.ts';
import { storageFull, unavailable } from '../errors/errors.ts';
import { networkErrorCodes } from '../errors/network-errors.ts';

type SdkError = {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
};

// Failures to reach the store at all (no HTTP answer): retrying later may work.
const NETWORK_FAILURES = new Set([...networkErrorCodes, 'TimeoutError', 'RequestTimeout']);

// A store that has no room left. S3 itself never fills up, but the stores people run do:
// MinIO answers 507 XMinioStorageFull (and sometimes 500 naming ENOSPC), Ceph RGW 507
// InsufficientCapacity for a full cluster and QuotaExceeded for a bucket or user quota.
// EntityTooLarge is not one of them: that is one object over the store's size limit.
const STORAGE_FULL_CODES = new Set([
  'XMinioStorageFull',
  'InsufficientStorage',
  'InsufficientCapacity',
  'StorageFull',
  'QuotaExceeded',
]);

/** Whether the store refused a write for lack of space (full disk, exhausted quota). */
export function isS3StorageFull(error: unknown): boolean {
  const { name, code, message, $metadata } = (error ?? {}) as SdkError;
  if ($metadata?.httpStatusCode === 507) return true;
  if (STORAGE_FULL_CODES.has(name ?? '') || STORAGE_FULL_CODES.has(code ?? '')) return true;
  return $metadata?.httpStatusCode === 500 && /no space left on device/i.test(message ?? '');
}

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

/**
 * A full store becomes STORAGE_FULL (507); network failures, throttling and other 5xx become
 * UNAVAILABLE (503); anything else stays as it is.
 */
export function toBlobStoreError(error: unknown): unknown {
  if (isAppError(error)) return error;
  if (isS3StorageFull(error)) return storageFull('blob store', error);
  const { name, code, $metadata } = (error ?? {}) as SdkError;
  const status = $metadata?.httpStatusCode;
  const isNetworkFailure = NETWORK_FAILURES.has(code ?? '') || NETWORK_FAILURES.has(name ?? '');
  if (isNetworkFailure || (status !== undefined && (status >= 500 || status === 429))) {
    return unavailable('blob store', error);
  }
  return error;
}
