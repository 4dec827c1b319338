import { randomBytes } from 'node:crypto';
import { validationFailed } from '../errors/errors.ts';

// Keys are built from server ids (`<projectId>/<fileId>`), but a store still refuses anything
// else: security, a `..` or absolute segment must never reach a filesystem path or bucket key.
const BLOB_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
// Versions are ours too (newBlobVersion), and end up in file names and object keys.
const BLOB_VERSION = /^[a-f0-9]{24}$/;

/** Throws VALIDATION_FAILED unless the key is slash-separated URL-safe id segments. */
export function assertValidBlobKey(key: string): void {
  if (!BLOB_KEY.test(key)) throw validationFailed('The blob key is not a valid key');
}

/** Throws VALIDATION_FAILED unless the key and the version are both well formed. */
export function assertValidBlobVersion(key: string, version: string): void {
  assertValidBlobKey(key);
  if (!BLOB_VERSION.test(version)) throw validationFailed('The blob version is not a valid version');
}

/** The stored name of version `version` of `key` (`<key>.<version>`, as toStoredName reads it). */
export function toVersionName(key: string, version: string): string {
  assertValidBlobVersion(key, version);
  return `${key}.${version}`;
}

/** A fresh version name: 96 random bits, so concurrent writers on any node never collide. */
export function newBlobVersion(): string {
  return randomBytes(12).toString('hex');
}

// What a store's listing recognises as its own: `<projectId>/<fileId>`, then `.<version>`
// for a version (the staging object of a direct upload has none). Anything else in the
// directory or bucket is not Coffer's and is never reported or removed by coffer gc.
const STORED_NAME = /^([A-Za-z0-9_-]+\/[A-Za-z0-9_-]+)(?:\.([a-f0-9]{24}))?$/;

/** The key and version a stored name stands for; undefined for names Coffer did not write. */
export function toStoredName(name: string): { key: string; version?: string } | undefined {
  const match = STORED_NAME.exec(name);
  if (!match?.[1]) return undefined;
  return match[2] ? { key: match[1], version: match[2] } : { key: match[1] };
}
