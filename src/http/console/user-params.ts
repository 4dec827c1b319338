import { Type } from '@sinclair/typebox';

/** The :projectId and :userId of the console's user routes. */
export const userParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});
