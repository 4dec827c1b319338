import type { FileRecord } from '../../domain/files/file-record.ts';
import type { FileRecordView } from './schemas.ts';
import { toFileView } from './to-wire.ts';

/** A record's view as JSON, by the view schema's serializer (FileRecordSchema's). */
export type SerializeFileView = (view: FileRecordView) => string;

type KeptJson = { text: string; bytes?: Buffer };

/**
 * The JSON of each kept (frozen) record's view, made once: a warm page of a hundred kept
 * records spent about a fifth of its time serializing their views again and encoding the
 * ~54 KB answer to UTF-8, and a GET of a record shared through folders serialized its
 * `folderAcl` entries again on every request (docs/benchmarks.md). A record that changes is a
 * new object, so kept JSON never goes stale.
 */
const keptJsonOfRecords = new WeakMap<FileRecord, KeptJson>();

function keptJsonOf(file: FileRecord, serialize: SerializeFileView): KeptJson {
  let kept = keptJsonOfRecords.get(file);
  if (kept === undefined) {
    kept = { text: serialize(toFileView(file)) };
    keptJsonOfRecords.set(file, kept);
  }
  return kept;
}

/** The record's JSON as text (a GET's answer joins it as a string: one encoding on the socket). */
export function fileJsonText(file: FileRecord, serialize: SerializeFileView): string {
  return Object.isFrozen(file) ? keptJsonOf(file, serialize).text : serialize(toFileView(file));
}

/** The record's JSON as bytes (a page's answer joins many as bytes, none encoded per request). */
export function fileJsonBytes(file: FileRecord, serialize: SerializeFileView): Buffer {
  if (!Object.isFrozen(file)) return Buffer.from(serialize(toFileView(file)));
  const kept = keptJsonOf(file, serialize);
  kept.bytes ??= Buffer.from(kept.text);
  return kept.bytes;
}
