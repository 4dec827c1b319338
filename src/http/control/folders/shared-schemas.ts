import { Type } from '@sinclair/typebox';
import type { SharedPage } from '../../../domain/folders/shared-with-me.ts';
import { defaultSharedPageSize, maxSharedPageSize } from '../../../domain/folders/shared-with-me.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** Any other name is refused rather than ignored (as the listing's). */
export const SharedQuerySchema = Type.Object(
  {
    pageSize: Type.Optional(
      Type.String({ description: `shares a page, 1…${maxSharedPageSize}, default ${defaultSharedPageSize}` }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 4096, description: 'nextCursor of the page before' })),
  },
  { additionalProperties: false },
);

const shareFields = {
  scope: Type.Union([Type.Literal('user'), Type.Literal('role')], {
    description: "whom the share names: the caller's id (`user`) or their role",
  }),
  sharedAt: Type.String({ format: 'date-time', description: 'when it was shared' }),
};

const SharedFolderItem = Type.Object({
  kind: Type.Literal('folder'),
  ...shareFields,
  owner: Type.String({ description: "the folder's owner (a user id)" }),
  path: Type.String({ description: "the shared folder, `/`-ended ('' is the owner's root)" }),
  fileCount: Type.Integer({ description: 'files in its whole subtree now (0 while it has none)' }),
  totalBytes: Type.Integer({ description: "the verified files' bytes in its whole subtree" }),
});

const SharedFileItem = Type.Object({
  kind: Type.Literal('file'),
  ...shareFields,
  file: FileRecordSchema,
});

export const SharedPageSchema = Type.Object({
  items: Type.Array(Type.Union([SharedFolderItem, SharedFileItem]), {
    description: 'the shares, newest first: one item per share (a file shared by id and by role is two)',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export function toSharedPageView(page: SharedPage) {
  return {
    items: page.items.map((item) => {
      const share = { scope: item.scope, sharedAt: item.sharedAt.toISOString() };
      if (item.kind === 'file') return { kind: item.kind, ...share, file: toFileView(item.file) };
      const { ownerId: owner, path, fileCount, totalBytes } = item;
      return { kind: item.kind, ...share, owner, path, fileCount, totalBytes };
    }),
    nextCursor: page.nextCursor ?? null,
  };
}
