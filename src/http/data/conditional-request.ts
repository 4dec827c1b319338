import type { IncomingHttpHeaders } from 'node:http';

/** What a download's conditional headers are compared with: its quoted ETag and last change. */
export type Validators = { etag: string; lastModified: Date };

/** An entity tag without its weakness mark: `W/"x"` and `"x"` compare equal weakly. */
const toOpaqueTag = (tag: string) => tag.trim().replace(/^W\//, '');

/** A date to whole seconds, as HTTP dates carry it. */
const toHttpSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * RFC 9110 §13.1.2 and §13.1.3, for GET and HEAD: true when the client's copy is current and
 * 304 is the answer. If-None-Match (`*` or a list of tags, compared weakly) decides when it is
 * there; only without it does If-Modified-Since count (an unreadable date is ignored).
 */
export function isNotModified(headers: IncomingHttpHeaders, validators: Validators): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    const current = toOpaqueTag(validators.etag);
    return ifNoneMatch.split(',').some((tag) => toOpaqueTag(tag) === current);
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && toHttpSeconds(validators.lastModified) <= Math.floor(since / 1000);
}

/**
 * RFC 9110 §13.1.5: a Range counts only while If-Range (if sent) still names this content: an
 * entity tag compared strongly (a weak one never matches), or exactly its Last-Modified date.
 * Otherwise the whole content is the answer, so a client never splices parts of two versions.
 */
export function isRangeCurrent(ifRange: string | string[] | undefined, validators: Validators): boolean {
  if (ifRange === undefined) return true;
  // Sent twice, it names no one validator: the whole content is the safe answer.
  if (Array.isArray(ifRange)) return false;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === validators.etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === toHttpSeconds(validators.lastModified);
}
