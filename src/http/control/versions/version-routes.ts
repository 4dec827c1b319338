import { deleteVersion } from './delete-version.ts';
import { listVersions } from './list-versions.ts';
import { requestVersion } from './request-version.ts';
import { restoreVersion } from './restore-version.ts';
import { verifyVersion } from './verify-version.ts';

/** The /api/v1 routes of a file's versions (issue 38), in the order they are registered (and documented). */
export const versionRoutes = [requestVersion, verifyVersion, listVersions, restoreVersion, deleteVersion];
