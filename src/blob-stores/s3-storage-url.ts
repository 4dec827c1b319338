import { validationFailed } from '../errors/errors.ts';

/** Where an S3BlobStore keeps blobs; credentials come separately (the AWS SDK's default chain). */
export type S3Location = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Prepended to every key with a '/', so one bucket can hold several deployments. */
  prefix?: string;
};

const KNOWN_PARAMS = new Set(['endpoint', 'region', 'forcePathStyle', 'prefix']);

/**
 * Reads `s3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true&prefix=x`.
 * Without `region`, us-east-1 (the S3 and MinIO default; the client follows region redirects).
 */
export function parseS3StorageUrl(url: string): S3Location {
  const parsed = URL.parse(url);
  if (parsed?.protocol !== 's3:' || !parsed.hostname || (parsed.pathname !== '' && parsed.pathname !== '/')) {
    throw validationFailed('The storage URL must look like s3://bucket?region=…');
  }
  const params = parsed.searchParams;
  for (const name of params.keys()) {
    // A typo such as forcepathstyle would otherwise be ignored and fail far from its cause.
    if (!KNOWN_PARAMS.has(name)) throw validationFailed(`The storage URL has an unknown parameter ${name}`);
  }
  const forcePathStyle = params.get('forcePathStyle') ?? 'false';
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') {
    throw validationFailed('The storage URL parameter forcePathStyle must be true or false');
  }
  const endpoint = params.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !URL.canParse(endpoint)) {
    throw validationFailed('The storage URL parameter endpoint must be a URL');
  }
  const prefix = params.get('prefix')?.replace(/^\/+|\/+$/g, '') || undefined;
  return {
    bucket: decodeURIComponent(parsed.hostname),
    region: params.get('region') || 'us-east-1',
    ...(endpoint && { endpoint }),
    forcePathStyle: forcePathStyle === 'true',
    ...(prefix && { prefix }),
  };
}
