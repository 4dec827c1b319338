import { Type } from '@sinclair/typebox';

/** The :projectId of the console's project routes. */
export const projectParams = Type.Object({ projectId: Type.String({ maxLength: 64 }) });
