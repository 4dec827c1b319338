import type { RouteRegistrar } from '../route-context.ts';
import { deleteProjectFileVersion } from './delete-project-file-version.ts';
import { emptyProjectTrash } from './empty-project-trash.ts';
import { holdProjectFile } from './hold-project-file.ts';
import { listProjectFileVersions } from './list-project-file-versions.ts';
import { listProjectTrash } from './list-project-trash.ts';
import { projectQuarantine } from './project-quarantine.ts';
import { purgeProjectTrashed } from './purge-project-trashed.ts';
import { restoreProjectFileVersion } from './restore-project-file-version.ts';
import { restoreProjectTrashed } from './restore-project-trashed.ts';

/**
 * The console's versions, trash and holds (issue 38) and quarantine (issue 42): the operator acts
 * as the project's admin through FileVersions, Trash, FileHolds and FileQuarantine, whose rules
 * (holds, quotas, paths) apply unchanged.
 */
export const consoleHistoryRoutes: RouteRegistrar[] = [
  listProjectFileVersions,
  restoreProjectFileVersion,
  deleteProjectFileVersion,
  holdProjectFile,
  listProjectTrash,
  restoreProjectTrashed,
  purgeProjectTrashed,
  emptyProjectTrash,
  projectQuarantine,
];
