import { Type } from '@sinclair/typebox';
import { defaultTrashPageSize, maxTrashPageSize, type TrashItem } from '../../../domain/trash/trash.ts';
import { FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** Whose trash: the caller's by default; another owner's needs the project's admin role. */
export const TrashOwner = Type.Optional(
  Type.String({ maxLength: 64, description: "whose trash (a user id); another user's needs the admin role" }),
);

/** Any other name is refused rather than ignored (as the listing's). */
export const TrashQuerySchema = Type.Object(
  {
    pageSize: Type.Optional(
      Type.String({ description: `files a page, 1…${maxTrashPageSize}, default ${defaultTrashPageSize}` }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 4096, description: 'nextCursor of the page before' })),
    owner: TrashOwner,
  },
  { additionalProperties: false },
);

const TrashItemSchema = Type.Object({
  ...FileRecordSchema.properties,
  trashedAt: Type.String({ format: 'date-time', description: 'when it went to the trash' }),
  trashedBy: Type.String({ description: 'who trashed it (a user id, a service key name)' }),
  purgeAt: Type.String({
    format: 'date-time',
    description: "when the retention sweep purges it, under the project's current trashRetentionDays",
  }),
});

export const TrashPageSchema = Type.Object({
  items: Type.Array(TrashItemSchema, { description: 'the trashed files, most recently trashed first' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export function toTrashPageView(page: { items: TrashItem[]; nextCursor?: string }) {
  return {
    items: page.items.map((item) => ({
      ...toFileView(item.file),
      trashedAt: item.trashedAt.toISOString(),
      trashedBy: item.trashedBy,
      purgeAt: item.purgeAt.toISOString(),
    })),
    nextCursor: page.nextCursor ?? null,
  };
}
