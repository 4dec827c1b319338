import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command } from './command.ts';
import { withSession } from './files-commands.ts';
import { restoreFromTrash } from './trash-commands.ts';

/**
 * `coffer files versions` and `files restore`: a file's versions (issue 38), as its user; `files
 * restore` without --version-id puts a trashed file back (trash-commands.ts).
 */
export const versionCommands: Record<string, Command> = {
  'files versions': {
    summary: "A file's versions, the current one first: id, size, when and by whom each was made.",
    flags: ['json'],
    args: ['<fileId>'],
    run: async (_config, _values, [fileId]) => {
      const versions = await withSession(process.env, (client) => client.versions(fileId!));
      const lines = versions.map(
        (version) =>
          `${version.current ? '*' : ' '} ${version.versionId}  ${formatBytes(version.size).padStart(10)}  ${version.createdAt}  by ${version.createdBy}`,
      );
      return { json: { fileId, versions }, text: lines.join('\n') };
    },
  },
  'files restore': {
    summary:
      'Put a deleted file back from the trash, at its old path or --path; with --version-id (from coffer files versions), make that earlier version its current content again, as a new version.',
    flags: ['path', 'version-id', 'json'],
    args: ['<fileId>'],
    run: async (_config, values, [fileId]) => {
      const versionId = values['version-id'];
      if (versionId === undefined) return restoreFromTrash(fileId!, values.path);
      if (values.path !== undefined)
        throw new ConfigError('--path places a file restored from the trash; a version restores in place');
      const file = await withSession(process.env, (client) => client.restoreVersion(fileId!, versionId));
      return { json: file, text: `${file._id} is at version ${file.versionId} (the bytes of ${versionId})` };
    },
  },
};
