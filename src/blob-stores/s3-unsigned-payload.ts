import type { S3Client } from '@aws-sdk/client-s3';

/** The commands that carry a file's bytes. */
const BYTE_COMMANDS = new Set(['PutObjectCommand', 'UploadPartCommand']);

/**
 * Signs the requests that carry file bytes with `x-amz-content-sha256: UNSIGNED-PAYLOAD`
 * (SigV4's unsigned-payload option, which S3, MinIO and Ceph RGW take on http and https): the
 * method, key, length, type and credentials stay signed, the body's SHA-256 is left out.
 * Otherwise the SDK's signer hashes every buffered part on the request thread before sending
 * it (a stream it could not hash at all), once more than the upload's own SHA-256, which
 * Coffer computes on its hashing thread anyway. Over https TLS keeps the body intact; over
 * plain http an attacker on the path could alter it, as it could alter any download: a
 * documented choice (docs/security.md, "Known limits"; docs/decisions.md).
 */
export function sendPayloadsUnsigned(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => (args) => {
      const { headers } = args.request as { headers?: Record<string, string> };
      // Read by the signer (getPayloadHash) in the finalizeRequest step, after this build step.
      if (headers && BYTE_COMMANDS.has(context.commandName ?? ''))
        headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'cofferUnsignedPayload', override: true },
  );
}
