import { Type } from '@sinclair/typebox';

export const VersionParams = Type.Object({ fileId: Type.String(), versionId: Type.String() });

/** One version of a file, as GET /api/v1/file/:fileId/versions lists it. */
export const VersionEntrySchema = Type.Object(
  {
    versionId: Type.String({ description: "the version's id; the first version's is the file's own" }),
    etag: Type.String({ description: 'quoted entity tag of its bytes' }),
    size: Type.Integer({ description: 'bytes' }),
    contentType: Type.String(),
    checksumSha256: Type.Union([Type.String(), Type.Null()], {
      description: 'base64 of the SHA-256 of its bytes; null when not known',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'when it was uploaded (or restored)' }),
    createdBy: Type.String({ description: 'the user who uploaded (or restored) it' }),
    current: Type.Boolean(),
  },
  { $id: 'FileVersion', title: 'FileVersion' },
);

export const VersionUploadAnswerSchema = Type.Object({
  fileId: Type.String(),
  versionId: Type.String({ description: 'the new version, once verified' }),
  putFileUrl: Type.String({ description: 'signed upload link: PUT the new content here' }),
  postVerifyUploadUrl: Type.String({ description: 'POST {etag} here to make it the current version' }),
  expiresAt: Type.Integer({ description: 'Unix seconds at which putFileUrl expires' }),
  resumableUrl: Type.Optional(
    Type.String({
      description:
        'with resumable: a tus 1.0 upload URL of the new content (HEAD for the offset, PATCH the bytes); signed, expires with the upload',
    }),
  ),
});
