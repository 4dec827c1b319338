import { Type } from '@sinclair/typebox';
import { maxFolderPageSize } from '../../../domain/folders/folder-browsing.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';

/** Any other name is refused rather than ignored (as the listing's): a misspelt filter would list the root. */
export const BrowseFolderQuery = Type.Object(
  {
    path: Type.Optional(
      Type.String({
        maxLength: 1025,
        description: "the folder, `/`-ended (one is added when missing); empty or absent: the owner's root",
      }),
    ),
    owner: Type.Optional(
      Type.String({ maxLength: 64, description: "whose folder (a user id); absent: the caller's own" }),
    ),
    pageSize: Type.Optional(
      Type.String({ description: `direct files a page, 1…${maxFolderPageSize}, default 100` }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'nextCursor of the page before' })),
  },
  { additionalProperties: false },
);

export const FolderEntrySchema = Type.Object(
  {
    name: Type.String({ description: "the subfolder's last segment" }),
    path: Type.String({ description: 'its full `/`-ended path' }),
    fileCount: Type.Integer({ description: 'files in its whole subtree' }),
    totalBytes: Type.Integer({ description: "the verified files' bytes in its whole subtree" }),
    updatedAt: Type.String({ description: 'ISO 8601 UTC: the last change in its subtree' }),
  },
  { $id: 'FolderEntry', title: 'FolderEntry' },
);

export const FolderPageSchema = Type.Object({
  owner: Type.String(),
  path: Type.String({ description: "the folder, `/`-ended; '' for the root" }),
  fileCount: Type.Integer({ description: 'files in its whole subtree' }),
  totalBytes: Type.Integer({ description: "the verified files' bytes in its whole subtree" }),
  folders: Type.Array(FolderEntrySchema, {
    description: 'its direct subfolders by name (code-point order), 1,000 at most, on the first page only',
  }),
  foldersTruncated: Type.Boolean({ description: 'it has more than 1,000 direct subfolders' }),
  files: Type.Array(FileRecordSchema, {
    description: 'its direct files by path (code-point order), as the listing shows them',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
