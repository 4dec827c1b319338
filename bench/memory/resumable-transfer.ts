import { createReadStream } from 'node:fs';
import type { Workload } from '../seed/workload.ts';
import { streamTransfer } from './stream-transfer.ts';

const MiB = 2 ** 20;
/** The chunk size for the bench row: what a phone client on a poor network would send. */
export const resumableChunkBytes = 5 * MiB;

/**
 * One resumable upload of `file` (tus 1.0, issue 20): the upload request with `resumable: true`,
 * then a PATCH per 5 MiB chunk streamed from the file, one after another, as tus clients send
 * them. Answers the ETag of the last PATCH (the commit's) and the file id, for verify.
 */
export async function resumableTransfer(
  workload: Workload,
  file: string,
  sizeBytes: number,
  filePath: string,
): Promise<{ status: number; text: string; etag: string; fileId: string }> {
  const requested = await workload.api.call('POST', '/api/v1/file', {
    token: workload.token,
    body: { filePath, contentLength: sizeBytes, resumable: true },
  });
  if (requested.status !== 200)
    throw new Error(`resumable request failed: ${requested.status} ${requested.text}`);
  const { fileId, resumableUrl } = requested.body as { fileId: string; resumableUrl: string };
  let answer = { status: 0, text: '', etag: '' };
  for (let offset = 0; offset < sizeBytes; offset += resumableChunkBytes) {
    const end = Math.min(sizeBytes, offset + resumableChunkBytes);
    const sent = await streamTransfer({
      url: resumableUrl,
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(end - offset),
      },
      body: createReadStream(file, { start: offset, end: end - 1, highWaterMark: MiB }),
    });
    answer = {
      status: sent.status === 204 ? 200 : sent.status,
      text: sent.text,
      etag: String(sent.headers.etag ?? ''),
    };
    if (sent.status !== 204) break;
  }
  return { ...answer, fileId };
}
