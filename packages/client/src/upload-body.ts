/**
 * How far an upload has gone. `phase` is `sending` while bytes go out, `finishing` once all
 * went and the server has not answered yet (it still stores and commits them), `done` with its
 * answer: `loadedBytes` equals `totalBytes` only then, so a bar shows 100 % only when it is true.
 */
export type UploadProgress = { loadedBytes: number; totalBytes: number; phase: UploadPhase };

export type UploadPhase = 'sending' | 'finishing' | 'done';

export type UploadBody = Blob | ArrayBuffer | Uint8Array | string;

/**
 * An upload's bytes, read a range at a time: a Blob is sliced (a File stays on disk until
 * sent), bytes are viewed in place. Never a second copy of the whole body.
 */
export type ByteSource = {
  sizeBytes: number;
  slice(start: number, end: number): Blob | Uint8Array;
  /** A File's own name and modification time (what tells one file from another). */
  file?: { name: string; lastModified: number };
};

export function toByteSource(body: UploadBody): ByteSource {
  const content = typeof body === 'string' ? new Blob([body]) : body;
  if (content instanceof Blob) {
    const file = typeof File !== 'undefined' && content instanceof File ? content : undefined;
    return {
      sizeBytes: content.size,
      slice: (start, end) => content.slice(start, end),
      ...(file && { file: { name: file.name, lastModified: file.lastModified } }),
    };
  }
  const bytes = content instanceof Uint8Array ? content : new Uint8Array(content);
  return { sizeBytes: bytes.byteLength, slice: (start, end) => bytes.subarray(start, end) };
}

/** A range of a source as bytes in memory (a Blob's range is read; bytes are viewed). */
export async function readRange(source: ByteSource, start: number, end: number): Promise<Uint8Array> {
  const range = source.slice(start, end);
  return range instanceof Blob ? new Uint8Array(await range.arrayBuffer()) : range;
}
