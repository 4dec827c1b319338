import { validationFailed } from '../../errors/errors.ts';

/** An app's own metadata on a file: a JSON object Coffer stores and returns, never reads. */
export type CustomData = { [key: string]: unknown };

/** Serialized (UTF-8 bytes of its JSON): enough for tags and ids, small enough to list pages of. */
export const maxCustomDataBytes = 4096;
/** Objects and arrays inside one another, the outer object being 1. */
export const maxCustomDataDepth = 16;

/**
 * security: keys that name JavaScript's prototype machinery. The control plane's JSON parser
 * already refuses `__proto__` and `constructor`; this refuses them wherever customData comes
 * from, so no consumer of the stored JSON can be handed a poisoning key by Coffer.
 */
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks customData as a client sent it: a plain JSON object (not an array, not null) of at
 * most maxCustomDataBytes serialized and maxCustomDataDepth levels, without prototype keys.
 * Answers it as it will be stored; throws VALIDATION_FAILED naming the rule broken.
 */
export function parseCustomData(value: unknown): CustomData {
  if (!isPlainObject(value)) throw validationFailed('customData must be a JSON object');
  assertShape(value, 1);
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > maxCustomDataBytes)
    throw validationFailed(`customData must be at most ${maxCustomDataBytes} bytes as JSON (it is ${bytes})`);
  return value;
}

function assertShape(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object') return;
  if (depth > maxCustomDataDepth)
    throw validationFailed(`customData must nest at most ${maxCustomDataDepth} levels deep`);
  if (Array.isArray(value)) {
    for (const item of value) assertShape(item, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (forbiddenKeys.has(key))
      throw validationFailed(`customData may not use the key ${JSON.stringify(key)}`);
    assertShape((value as CustomData)[key], depth + 1);
  }
}

function isPlainObject(value: unknown): value is CustomData {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
