/** An answer to a request that carried bytes. */
export type SentAnswer = { status: number; header(name: string): string | null; text: string };

export type SendOptions = {
  method: 'PUT' | 'PATCH';
  headers: Record<string, string>;
  /** Told how many of these bytes have gone so far. */
  onSent?: (sentBytes: number) => void;
  signal?: AbortSignal;
  fetch: typeof fetch;
};

/** The granularity of progress outside browsers. */
const progressSliceBytes = 64 * 1024;

/**
 * Sends bytes, reporting how many have gone. Browsers: XMLHttpRequest, the one browser API
 * with upload progress. Elsewhere (Node, Deno, Bun): fetch with a streamed body, counting the
 * slices as fetch takes them.
 */
export function sendBytes(url: string, bytes: Blob | Uint8Array, options: SendOptions): Promise<SentAnswer> {
  if (typeof XMLHttpRequest !== 'undefined') return sendWithXhr(url, bytes, options);
  return sendWithFetch(url, bytes, options);
}

function sendWithXhr(url: string, bytes: Blob | Uint8Array, options: SendOptions): Promise<SentAnswer> {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    const settle = () => signal?.removeEventListener('abort', abort);
    request.open(options.method, url);
    for (const [name, value] of Object.entries(options.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => options.onSent?.(event.loaded);
    request.onload = () => {
      settle();
      resolve({
        status: request.status,
        header: (name) => request.getResponseHeader(name),
        text: request.responseText,
      });
    };
    request.onerror = () => {
      settle();
      reject(new TypeError('network error'));
    };
    request.onabort = () => {
      settle();
      reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', abort, { once: true });
    request.send(bytes as XMLHttpRequestBodyInit);
  });
}

async function sendWithFetch(
  url: string,
  bytes: Blob | Uint8Array,
  options: SendOptions,
): Promise<SentAnswer> {
  const totalBytes = bytes instanceof Blob ? bytes.size : bytes.byteLength;
  let sentBytes = 0;
  // Pulled a slice at a time: a slice is read (and counted) when fetch asks for more, so the
  // progress follows what the connection takes, not what memory holds.
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sentBytes >= totalBytes) return controller.close();
      const end = sentBytes + progressSliceBytes;
      const slice =
        bytes instanceof Blob
          ? new Uint8Array(await bytes.slice(sentBytes, end).arrayBuffer())
          : bytes.slice(sentBytes, end);
      sentBytes += slice.byteLength;
      controller.enqueue(slice);
      options.onSent?.(sentBytes);
    },
  });
  const response = await options.fetch(url, {
    method: options.method,
    // No bytes, no stream: a zero-length request says Content-Length: 0.
    body: totalBytes === 0 ? new Uint8Array(0) : counted,
    headers: options.headers,
    signal: options.signal,
    duplex: 'half',
  } as RequestInit);
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: await response.text(),
  };
}
