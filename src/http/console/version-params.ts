import { Type } from '@sinclair/typebox';

/** The :projectId, :fileId and :versionId of the console's version routes. */
export const versionParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  fileId: Type.String({ maxLength: 64 }),
  versionId: Type.String({ maxLength: 64 }),
});
