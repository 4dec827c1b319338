import { validationFailed } from '../errors/errors.ts';

// Keys are built from server ids (`<projectId>/<fileId>`), but a store still refuses anything
// else: security, a `..` or absolute segment must never reach a filesystem path or bucket key.
const BLOB_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Throws VALIDATION_FAILED unless the key is slash-separated URL-safe id segments. */
export function assertValidBlobKey(key: string): void {
  if (!BLOB_KEY.test(key)) throw validationFailed('The blob key is not a valid key');
}
