import { invalidFilePath } from '../../errors/errors.ts';

export const maxFilePathBytes = 1024;

// security: control characters (C0, DEL, C1), bidirectional overrides and isolates (which can
// make `evil<U+202E>gpj.exe` display as `evilexe.jpg`), and invisible or zero-width characters (which
// make two different paths look the same) have no place in a file name.
const forbiddenRanges = [
  '\\u0000-\\u001f\\u007f-\\u009f', // C0 controls, DEL, C1 controls
  '\\u202a-\\u202e\\u2066-\\u2069\\u061c\\u200e\\u200f', // bidi embeddings, overrides, isolates, marks
  '\\u00ad\\u115f\\u1160\\u180e\\u200b-\\u200d\\u2060-\\u2065\\u206a-\\u206f', // invisible: soft hyphen, fillers, zero-width
  '\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufff8', // Hangul fillers, variation selectors, BOM, specials
];
const forbiddenCharacters = new RegExp(`[${forbiddenRanges.join('')}]`, 'u');

/**
 * Returns the path when it is a relative, `/`-separated path of 1–1024 UTF-8 bytes in NFC,
 * with no empty, `.` or `..` segment and no backslash or forbidden character; otherwise throws
 * INVALID_FILE_PATH saying why. The path is never used to name anything on disk.
 */
export function validateFilePath(filePath: string): string {
  if (filePath.length === 0) throw invalidFilePath('it is empty');
  if (Buffer.byteLength(filePath, 'utf8') > maxFilePathBytes) {
    throw invalidFilePath(`it is longer than ${maxFilePathBytes} UTF-8 bytes`);
  }
  if (!filePath.isWellFormed()) throw invalidFilePath('it holds an unpaired surrogate');
  if (filePath.normalize('NFC') !== filePath) throw invalidFilePath('it is not in Unicode NFC form');
  if (filePath.startsWith('/')) throw invalidFilePath('it must be relative (no leading /)');
  if (filePath.includes('\\')) throw invalidFilePath('it must use / as separator, not \\');
  if (forbiddenCharacters.test(filePath)) {
    throw invalidFilePath('it holds a control, bidirectional-override or invisible character');
  }
  for (const segment of filePath.split('/')) {
    if (segment === '') throw invalidFilePath('it has an empty segment (// or a trailing /)');
    if (segment === '.' || segment === '..') throw invalidFilePath('it has a . or .. segment');
  }
  return filePath;
}

/** The file name: the last segment of the path (spec 2.1). */
export function toFileName(filePath: string): string {
  return filePath.slice(filePath.lastIndexOf('/') + 1);
}
