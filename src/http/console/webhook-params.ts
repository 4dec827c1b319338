import { Type } from '@sinclair/typebox';

/** The :projectId and :webhookId of the console's webhook routes. */
export const webhookParams = Type.Object({
  projectId: Type.String({ maxLength: 64 }),
  webhookId: Type.String({ maxLength: 64 }),
});
