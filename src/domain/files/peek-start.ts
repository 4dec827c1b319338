import { Readable } from 'node:stream';

/**
 * Reads the first `sizeBytes` of a stream (fewer if it ends first) and hands back a stream of
 * the whole body, those bytes included: detection looks at the start without ever holding
 * more than the sample. Rejects when the body fails (or is aborted) before the sample is in.
 */
export function peekStart(body: Readable, sizeBytes: number): Promise<{ head: Buffer; body: Readable }> {
  // A body destroyed before we got to it (a form that broke off while the record was read)
  // has already said so: its events are gone.
  if (body.destroyed || body.errored)
    return Promise.reject(body.errored ?? new Error('the body was closed before its end'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (ended: boolean) => {
      body.off('readable', onReadable).off('end', onEnd).off('error', onError).off('close', onClose);
      const head = Buffer.concat(chunks, length);
      if (ended) {
        resolve({ head, body: Readable.from(length > 0 ? [head] : []) });
      } else {
        body.unshift(head);
        resolve({ head, body });
      }
    };
    const onReadable = () => {
      while (length < sizeBytes) {
        const chunk = body.read() as Buffer | null;
        if (chunk === null) break;
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= sizeBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      body.off('readable', onReadable).off('end', onEnd).off('close', onClose);
      reject(error);
    };
    const onClose = () => {
      if (!body.readableEnded) onError(new Error('the body was closed before its end'));
    };
    body.on('readable', onReadable).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
