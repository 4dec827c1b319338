/** How far an upload's bytes have gone. */
export type UploadProgress = { loadedBytes: number; totalBytes: number };

export type UploadBody = Blob | ArrayBuffer | Uint8Array | string;

/** The granularity of progress outside browsers. */
const progressSliceBytes = 64 * 1024;

type PutResult = { status: number; etag: string | null; text: string };

/**
 * PUTs the content to a signed upload link, reporting progress. Browsers: XMLHttpRequest, the
 * one browser API with upload progress. Elsewhere (Node, Deno, Bun): fetch with a streamed
 * body, counting the chunks as fetch takes them.
 */
export function putContent(
  url: string,
  body: UploadBody,
  options: {
    contentType: string;
    onProgress?: (progress: UploadProgress) => void;
    signal?: AbortSignal;
    fetch: typeof fetch;
  },
): Promise<PutResult> {
  const blob = toBlob(body, options.contentType);
  if (typeof XMLHttpRequest !== 'undefined') return putWithXhr(url, blob, options.onProgress, options.signal);
  return putWithFetch(url, blob, options);
}

function toBlob(body: UploadBody, contentType: string): Blob {
  if (body instanceof Blob) return body.type ? body : new Blob([body], { type: contentType });
  return new Blob([body as BlobPart], { type: contentType });
}

function putWithXhr(
  url: string,
  blob: Blob,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<PutResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader('content-type', blob.type);
    request.upload.onprogress = (event) =>
      onProgress?.({
        loadedBytes: event.loaded,
        totalBytes: event.lengthComputable ? event.total : blob.size,
      });
    request.onload = () =>
      resolve({
        status: request.status,
        etag: request.getResponseHeader('etag'),
        text: request.responseText,
      });
    request.onerror = () => reject(new TypeError('network error'));
    request.onabort = () => reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(blob);
  });
}

async function putWithFetch(
  url: string,
  blob: Blob,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal; fetch: typeof fetch },
): Promise<PutResult> {
  const { onProgress, signal } = options;
  const totalBytes = blob.size;
  let loadedBytes = 0;
  // Pulled a slice at a time: a slice is read (and counted) when fetch asks for more, so the
  // progress follows what the connection takes, not what memory holds.
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (loadedBytes >= totalBytes) return controller.close();
      const slice = new Uint8Array(
        await blob.slice(loadedBytes, loadedBytes + progressSliceBytes).arrayBuffer(),
      );
      loadedBytes += slice.byteLength;
      controller.enqueue(slice);
      onProgress?.({ loadedBytes, totalBytes });
    },
  });
  const response = await options.fetch(url, {
    method: 'PUT',
    body: counted,
    headers: { 'content-type': blob.type },
    signal,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
}
