import { Type } from '@sinclair/typebox';

/** Whose folder: the caller's by default; another owner's needs the project's admin role. */
export const FolderOwner = Type.Optional(
  Type.String({
    maxLength: 64,
    description: "the folder's owner (the files' creator); another user's needs the admin role",
  }),
);
