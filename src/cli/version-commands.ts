import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command } from './command.ts';
import { withSession } from './files-commands.ts';

/** `coffer files versions` and `files restore --version-id`: a file's versions (issue 38), as its user. */
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
      'Make an earlier version of a file (--version-id, from coffer files versions) its current content again, as a new version.',
    flags: ['version-id', 'json'],
    args: ['<fileId>'],
    run: async (_config, values, [fileId]) => {
      const versionId = values['version-id'];
      if (!versionId)
        throw new ConfigError('--version-id names the version to restore: coffer files versions <fileId>');
      const file = await withSession(process.env, (client) => client.restoreVersion(fileId!, versionId));
      return { json: file, text: `${file._id} is at version ${file.versionId} (the bytes of ${versionId})` };
    },
  },
};
