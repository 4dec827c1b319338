import { createArchive } from './create-archive.ts';

/** The /api/v1 routes of archives (issue 40). */
export const archiveRoutes = [createArchive];
