import { type Static, Type } from '@sinclair/typebox';

// The wire shapes of the API. They validate input, serialize output fast and feed the OpenAPI
// document at /docs/json, where a schema with a `title` becomes a named component.

export const AclEntrySchema = Type.Object({
  scope: Type.Union([Type.Literal('user'), Type.Literal('role')]),
  identifier: Type.String(),
});

/** A share of a folder holding the file (issue 36): `path` is that folder, `/`-ended ('' the owner's root). */
export const FolderAclEntrySchema = Type.Object({
  scope: Type.Union([Type.Literal('user'), Type.Literal('role')]),
  identifier: Type.String(),
  path: Type.String({ description: "the shared folder, `/`-ended ('' is the owner's root)" }),
});

export const FileMetaSchema = Type.Object(
  {
    LastModified: Type.Optional(Type.String({ description: 'HTTP date' })),
    ContentLength: Type.Optional(Type.String({ description: 'byte count, as a string' })),
    ContentType: Type.Optional(Type.String()),
    ChecksumSHA256: Type.Optional(
      Type.String({
        description:
          "base64 of the SHA-256 digest of the content (as S3's x-amz-checksum-sha256), computed while it streamed; absent for a direct upload that declared none",
      }),
    ),
    width: Type.Optional(
      Type.Integer({
        description:
          "images and videos: width in pixels as displayed (EXIF orientation, a video's rotation applied), once summarized",
      }),
    ),
    height: Type.Optional(
      Type.Integer({ description: 'images and videos: height in pixels as displayed, once summarized' }),
    ),
    scan: Type.Optional(
      Type.Object(
        {
          result: Type.Union([Type.Literal('clean'), Type.Literal('skipped')]),
          engine: Type.Optional(Type.String({ description: 'the scanner, e.g. ClamAV 1.4.6' })),
          signatures: Type.Optional(
            Type.String({ description: "the signature database's version and date" }),
          ),
          reason: Type.Optional(
            Type.Union([Type.Literal('oversize'), Type.Literal('unavailable')], {
              description:
                'skipped: past the scanner limit (scanOversize=allow) or the scanner did not answer (COFFER_SCAN_FAIL_OPEN)',
            }),
          ),
          scannedAt: Type.String({ format: 'date-time' }),
        },
        {
          description:
            'the malware scanner verdict on these bytes (issue 42); absent when not scanned (no COFFER_SCAN_URL, scan=off, or before scanning)',
        },
      ),
    ),
    placeholder: Type.Optional(
      Type.String({
        description:
          "images and videos: a ThumbHash (base64) of the image (a video's poster frame), for a page to paint while the image or its rendition loads",
      }),
    ),
    durationSeconds: Type.Optional(
      Type.Number({ description: 'videos: the duration in seconds (millisecond precision), once probed' }),
    ),
    videoCodec: Type.Optional(
      Type.String({
        description: 'videos: the video codec, as ffprobe names it (h264, hevc, vp8, vp9, av1, …)',
      }),
    ),
    audioCodec: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description:
          "videos: the first audio stream's codec (aac, opus, …); null when the video has no sound",
      }),
    ),
  },
  { description: 'Storage metadata; empty until the upload is verified' },
);

/** The app's own metadata (docs/decisions.md, "customData"); absent until first set. */
export const CustomDataSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "a JSON object of the app's own, at most 4096 bytes as JSON and 16 levels deep",
  },
);

const fileRecordFields = {
  _id: Type.String(),
  __createdAt: Type.String({ format: 'date-time' }),
  __updatedAt: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
  filePath: Type.String(),
  key: Type.String({ description: '<project>/<creator>/<filePath>' }),
  creator: Type.String(),
  project: Type.String(),
  meta: FileMetaSchema,
  acl: Type.Array(AclEntrySchema),
  folderAcl: Type.Array(FolderAclEntrySchema, {
    description:
      "shares of the folders holding the file (issue 36), ancestors first: each lets its user or role read every file under `path`; `acl` stays the file's own entries",
  }),
  verified: Type.Boolean(),
  permissionScope: Type.Union([Type.Literal('user'), Type.Literal('*')]),
  etag: Type.Optional(Type.String({ description: 'quoted entity tag; present once verified' })),
  versionId: Type.Optional(
    Type.String({
      description:
        "the version this record's content is (issue 38): the current one, or the one asked for with ?versionId=; present once verified",
    }),
  ),
  customData: Type.Optional(CustomDataSchema),
  hold: Type.Optional(
    Type.Object(
      {
        reason: Type.String(),
        heldAt: Type.String({ format: 'date-time' }),
        heldBy: Type.String({ description: "the admin's user id, or `service-key:<name>`" }),
      },
      { description: 'a legal hold (issue 38): present while the file is held' },
    ),
  ),
  quarantine: Type.Optional(
    Type.Object(
      {
        signature: Type.String({ description: 'what the scanner found, e.g. `Win.Test.EICAR_HDB-1`' }),
        quarantinedAt: Type.String({ format: 'date-time' }),
        versionId: Type.String({ description: 'the version it was found in' }),
      },
      {
        description:
          'present while the file is quarantined (issue 42): a re-scan found malware in one of its versions; its bytes answer 451 FILE_QUARANTINED until a project admin releases it',
      },
    ),
  ),
};

export const FileRecordSchema = Type.Object(fileRecordFields, { $id: 'FileRecord', title: 'FileRecord' });
export type FileRecordView = Static<typeof FileRecordSchema>;

export const FileWithLinkSchema = Type.Object({
  ...fileRecordFields,
  url: Type.String({ description: 'signed download link' }),
  expiresAt: Type.Integer({ description: 'Unix seconds at which url expires' }),
});

export const FileIdParams = Type.Object({ fileId: Type.String() });

export const LoginResultSchema = Type.Object({
  token: Type.String(),
  userId: Type.String(),
  expires: Type.String({ format: 'date-time', description: 'when the token expires' }),
  expiresAt: Type.Integer({ description: 'the same, in Unix seconds' }),
  refreshToken: Type.String({
    description: 'single use: POST /api/v1/auth/refresh answers a new token and a new refreshToken',
  }),
});

/** A refresh token as clients send it back (43 base64url characters; longer is never valid). */
export const RefreshTokenField = Type.String({ minLength: 1, maxLength: 256 });

export const UserProfileSchema = Type.Object({
  _id: Type.String(),
  role: Type.String(),
  ownerId: Type.Union([Type.String(), Type.Null()]),
  providers: Type.Array(
    Type.Object({
      id: Type.String({ description: "the provider's id of the user (`sub`)" }),
      displayName: Type.String(),
      providerName: Type.String({ description: 'the provider, as the project names it (google, github, …)' }),
    }),
    { description: 'the identity providers the user signs in with (issue 37)' },
  ),
  devices: Type.Array(
    Type.Object({
      uuid: Type.String(),
      platform: Type.String(),
      model: Type.String(),
      serial: Type.String(),
      verified: Type.Boolean(),
      notificationActivated: Type.Boolean(),
    }),
  ),
  picture: Type.Union([Type.String(), Type.Null()]),
  displayName: Type.String(),
  emails: Type.Array(
    Type.Object({ email: Type.String(), primary: Type.Boolean(), verified: Type.Boolean() }),
  ),
  accountState: Type.Object({ enabled: Type.Boolean(), expired: Type.Boolean() }),
  __createdAt: Type.String({ format: 'date-time' }),
  __updatedAt: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
});

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Union([
        Type.Object(
          {
            fileIds: Type.Array(Type.String(), { description: 'the refused files, at most 100' }),
            moreFileIds: Type.Integer({ description: 'how many more were refused and not listed' }),
          },
          { description: 'a call about many files (POST /api/v1/archives): the ones it refused' },
        ),
        Type.Object(
          { signature: Type.String({ description: 'what the scanner found, e.g. Win.Test.EICAR_HDB-1' }) },
          { description: 'FILE_INFECTED (issue 42): the malware signature the scanner found' },
        ),
        Type.Object(
          { reason: Type.String({ description: "the admission hook's reason, at most 500 characters" }) },
          { description: "FILE_REJECTED (issue 42): why the project's admission hook refused the upload" },
        ),
      ]),
    ),
    mfaToken: Type.Optional(
      Type.String({
        description: 'MFA_REQUIRED: send it with a code to POST /api/v1/auth/mfa (5 minutes, single use)',
      }),
    ),
    methods: Type.Optional(
      Type.Array(Type.String(), {
        description: 'MFA_REQUIRED: the second factors the user has (totp, recoveryCode, passkey)',
      }),
    ),
    enrolmentToken: Type.Optional(
      Type.String({
        description: 'MFA_ENROLMENT_REQUIRED: a bearer token good only for enrolling a second factor',
      }),
    ),
  },
  { title: 'Error' },
);

/**
 * What an upload request may declare about its bytes (issue 10, item 6): the gateway refuses
 * a body that differs with 400 CONTENT_MISMATCH; in direct-upload mode they are signed into
 * the store's upload URL.
 */
export const UploadContractFields = {
  contentLength: Type.Optional(
    Type.Integer({ minimum: 0, description: 'the exact length of the content, in bytes' }),
  ),
  contentType: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'the content type the upload will carry (its Content-Type or multipart part type)',
    }),
  ),
  checksumSha256: Type.Optional(
    Type.String({
      minLength: 44,
      maxLength: 44,
      description: "base64 of the content's SHA-256 digest, as S3's x-amz-checksum-sha256",
    }),
  ),
};

/**
 * Rendition parameters of GET /api/v1/file/:fileId (issue 21), strings on purpose: the rules
 * (and their error messages naming the allowed values) are domain/renditions/rendition-spec.ts's.
 */
export const RenditionQuerySchema = {
  width: Type.Optional(Type.String({ description: 'rendition width in pixels, 1–4096' })),
  height: Type.Optional(Type.String({ description: 'rendition height in pixels, 1–4096' })),
  resize: Type.Optional(
    Type.String({
      description: 'cover (default) | contain | fill | inside: how the image fits width × height',
    }),
  ),
  format: Type.Optional(
    Type.String({ description: "origin (default: the source's) | webp | avif | jpeg | png" }),
  ),
  quality: Type.Optional(Type.String({ description: 'encoder quality, 20–100, default 80' })),
  animated: Type.Optional(
    Type.String({
      description:
        'true | false (default): every frame of an animated GIF or WebP, with its timing, as an animated WebP (needs format=webp); else the first frame. May go beside a preset name',
    }),
  ),
  posterAt: Type.Optional(
    Type.String({
      description:
        "a video's poster frame at these seconds, 0–86400 with at most 3 decimals (default: 1 s, or the first frame of a shorter clip). May go beside a preset name",
    }),
  ),
  rendition: Type.Optional(
    Type.String({ description: "a preset of the project's (coffer project set <p> renditions.<name>=…)" }),
  ),
};
