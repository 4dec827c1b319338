import { randomBytes } from 'node:crypto';

/** A new unguessable, URL-safe id: 128 random bits, base64url (22 characters). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** A new secret for the app credentials: 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether the text could be one of our ids (anything else names no record). */
export function isWellFormedId(text: string): boolean {
  return idPattern.test(text);
}
