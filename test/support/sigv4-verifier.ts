import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Checks an AWS Signature Version 4 request (Authorization header or presigned query) the way
 * S3 does: canonical request over the path as sent, the RFC 3986-encoded sorted query and the
 * signed headers. s3rver's own check encodes the query with encodeURIComponent, so it rejects
 * every correct signature over `'`, `*`, `(` or `)` (any `filename*=UTF-8''…` override) and
 * every bucket-level request the SDK sends with a trailing slash; the test server uses this.
 * Returns undefined when the request carries no SigV4 credentials (anonymous).
 */
export function isValidSigV4(
  request: IncomingMessage,
  secretAccessKey: string,
  now = new Date(),
): boolean | undefined {
  const [rawPath = '/', rawQuery = ''] = (request.url ?? '/').split('?', 2);
  const params = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return (at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)]).map(decodeURIComponent) as [
        string,
        string,
      ];
    });
  const query = new Map(params);
  if (!query.has('X-Amz-Signature') && request.headers.authorization === undefined) return undefined;
  const auth = query.has('X-Amz-Signature') ? fromQuery(query) : fromHeaders(request.headers);
  if (!auth) return false;
  if (auth.expiresInSeconds !== undefined) {
    const signedAt = Date.parse(
      auth.amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    if (!(now.getTime() <= signedAt + auth.expiresInSeconds * 1000)) return false;
  }
  const canonicalQuery = params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = auth.signedHeaders
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash =
    auth.expiresInSeconds !== undefined ? 'UNSIGNED-PAYLOAD' : request.headers['x-amz-content-sha256'];
  const canonicalRequest = [
    request.method,
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    auth.signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  const [, date = '', region = '', service = ''] = auth.credential.split('/');
  const scope = auth.credential.split('/').slice(1).join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', auth.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${secretAccessKey}`, date);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(auth.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

type SigV4Auth = {
  credential: string;
  signedHeaders: string[];
  signature: string;
  amzDate: string;
  expiresInSeconds?: number;
};

function fromQuery(query: Map<string, string>): SigV4Auth {
  return {
    credential: query.get('X-Amz-Credential') ?? '',
    signedHeaders: (query.get('X-Amz-SignedHeaders') ?? '').split(';'),
    signature: query.get('X-Amz-Signature') ?? '',
    amzDate: query.get('X-Amz-Date') ?? '',
    expiresInSeconds: Number(query.get('X-Amz-Expires') ?? 0),
  };
}

function fromHeaders(headers: IncomingMessage['headers']): SigV4Auth | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=(\w+)$/.exec(
    headers.authorization ?? '',
  );
  if (!match) return undefined;
  const amzDate = String(headers['x-amz-date'] ?? '');
  return { credential: match[1]!, signedHeaders: match[2]!.split(';'), signature: match[3]!, amzDate };
}

function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
