import Uppy from '@uppy/core';
import Dashboard from '@uppy/dashboard';
import Tus from '@uppy/tus';

/**
 * Uppy's Dashboard uploading to Coffer over tus, each file verified by its last byte
 * (`verify=true`): no verify call, no glue. `token` is the signed-in user's access token; the
 * page's origin is one of the project's allowed origins (so no app secret in the browser).
 */
export function cofferUppy({ target, baseUrl, appId, token }) {
  const uppy = new Uppy({ meta: { verify: 'true' } });
  uppy.on('file-added', (file) =>
    uppy.setFileMeta(file.id, {
      filePath: `uploads/${file.name}`,
      contentType: file.type || 'application/octet-stream',
    }),
  );
  uppy.use(Dashboard, { target, inline: true });
  uppy.use(Tus, {
    endpoint: `${baseUrl}/api/v1/uploads`,
    headers: { 'sb-app-id': appId, authorization: `Bearer ${token}` },
    allowedMetaFields: ['filePath', 'contentType', 'verify'],
    removeFingerprintOnSuccess: true,
  });
  // The last PATCH answers the verified file record (and `Coffer-File-Verified: true`).
  uppy.on('upload-success', (file, response) => {
    const record = JSON.parse(response.body.xhr.responseText);
    uppy.setFileMeta(file.id, { cofferFileId: record._id, verified: record.verified });
  });
  return uppy;
}
