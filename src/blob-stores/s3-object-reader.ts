import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ByteRange } from '../domain/blobs/blob-store.ts';

/** Kept-alive connections to the store, as the AWS SDK keeps them. */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** How long the store may take to answer a GET's headers; its body may pause for a slow reader. */
const HEADERS_TIMEOUT_MS = 30_000;

/**
 * GETs an object through a presigned URL with node:http alone: S3's answer, its body unread.
 * The AWS SDK's GetObject costs ~45 % more CPU per byte relayed (a 256 MiB download through the
 * gateway: 1.38 s against 0.96 s, `npm run bench -- --only download-large --stack pg-s3`),
 * and a download is nothing but bytes relayed. Fails (a network error, the timeout, the
 * abort) before an answer comes; any answer, error statuses included, is the caller's to read.
 */
export function getS3Object(
  url: string,
  options: { range?: ByteRange; signal?: AbortSignal },
): Promise<IncomingMessage> {
  const { range, signal } = options;
  const secure = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const request: ClientRequest = (secure ? httpsRequest : httpRequest)(url, {
      agent: secure ? agents.https : agents.http,
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
      signal,
    });
    // Every error, also one after the answer (the promise is settled by then): never unhandled.
    request.on('error', reject);
    request.setTimeout(HEADERS_TIMEOUT_MS, () =>
      request.destroy(
        Object.assign(new Error('the blob store did not answer in time'), { code: 'ETIMEDOUT' }),
      ),
    );
    request.once('response', (answer) => {
      request.setTimeout(0);
      resolve(answer);
    });
    request.end();
  });
}
