import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import Dashboard from '@uppy/dashboard';

const MiB = 1024 * 1024;

/**
 * Uppy's Dashboard sending the bytes straight to Coffer's S3 bucket (`@uppy/aws-s3`), each file
 * verified as its upload completes. Coffer signs each S3 request of the file's one upload (the
 * key is always the file's own), and the completion goes through Coffer, which verifies the
 * file: `upload-success` means verified. `partSizeBytes` is the server's S3 part size (5 MiB
 * unless configured otherwise): every part but the last has exactly that size.
 */
export function cofferUppyS3({ target, baseUrl, appId, token, partSizeBytes = 5 * MiB }) {
  const uppy = new Uppy();
  uppy.on('file-added', (file) =>
    uppy.setFileMeta(file.id, {
      filePath: `uploads/${file.name}`,
      contentType: file.type || 'application/octet-stream',
    }),
  );
  const call = async (path, body) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { 'sb-app-id': appId, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${answer.code}: ${answer.message}`);
    return answer;
  };
  uppy.use(Dashboard, { target, inline: true });
  uppy.use(AwsS3, {
    // Always multipart (S3 takes a small last part), so every upload completes through Coffer.
    shouldUseMultipart: () => true,
    getChunkSize: ({ size }) => Math.max(partSizeBytes, Math.ceil(size / 10_000 / MiB) * MiB),
    // The first request's key is Uppy's file id; Coffer answers the file's id, used from then on.
    generateObjectKey: (file) => file.id,
    async signRequest({ method, key, uploadId, partNumber }) {
      let fileId = key;
      if (method === 'POST' && !uploadId) {
        const { meta, size } = uppy.getFile(key);
        const { filePath, contentType, checksumSha256 } = meta;
        ({ fileId } = await call('/file', { filePath, contentType, contentLength: size, checksumSha256 }));
      }
      const operation = !uploadId
        ? 'createMultipartUpload'
        : {
            PUT: 'uploadPart',
            GET: 'listParts',
            DELETE: 'abortMultipartUpload',
            POST: 'completeMultipartUpload',
          }[method];
      return call(`/file/${fileId}/multipart/sign`, { method, operation, uploadId, partNumber });
    },
  });
  // The completion answered through Coffer: the upload's key is the verified file's id.
  uppy.on('upload-success', (file, response) =>
    uppy.setFileMeta(file.id, { cofferFileId: response.body.key, verified: true }),
  );
  return uppy;
}
