import type { ArchiveSelection } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command, Values } from './command.ts';
import { toFileLine, withSession } from './files-commands.ts';
import { findFiles, toLimit, toSearchFilters } from './find-files.ts';
import { createProgress } from './progress.ts';
import { toSharedFolder } from './share-commands.ts';
import { zipFiles } from './zip-files.ts';

/** `coffer files find` and `coffer files zip` (issue 40): search what you may read, fetch many as one ZIP. */
export const findCommands: Record<string, Command> = {
  'files find': {
    summary:
      'Find the files you may read by name, type, customData, dates, size, owner (--scope mine|shared|all) and path prefix, newest first; up to --limit (100).',
    flags: [
      'name',
      'type',
      'custom',
      'after',
      'before',
      'min-size',
      'max-size',
      'sort',
      'order',
      'scope',
      'path',
      'limit',
      'json',
    ],
    run: async (_config, values) => {
      const json = values.json === true;
      const filters = toSearchFilters(values);
      const limit = toLimit(values.limit);
      const { more } = await withSession(process.env, (client) =>
        findFiles(client, filters, limit, (file) =>
          console.log(json ? JSON.stringify(file) : toFileLine(file)),
        ),
      );
      if (more) process.stderr.write(`coffer: more files match than --limit ${limit}\n`);
      return undefined; // printed line by line
    },
  },
  'files zip': {
    summary:
      'Download many files as one ZIP: a folder (--folder, / for your root; --owner: whose) or files by id; to --out (--force overwrites), or --url: print its link.',
    flags: ['folder', 'owner', 'out', 'force', 'url', 'json'],
    args: ['[fileId]...'],
    run: async (_config, values, fileIds) => {
      // --url is bare here (command.ts): a value after it is a file id it took.
      if (values.url !== undefined && values.url !== 'true')
        throw new ConfigError(`--url takes no value with files zip (put it last): ${values.url}`);
      if (values.url !== undefined && values.out !== undefined)
        throw new ConfigError('--url and --out exclude each other');
      const selection = toArchiveSelection(values, fileIds);
      if (values.url !== undefined) {
        const link = await withSession(process.env, (client) => client.archive(selection));
        return { json: link, text: link.url };
      }
      const progress = createProgress('zip', { json: values.json === true });
      const input = { selection, out: values.out, force: values.force === true };
      const result = await withSession(process.env, (client) => zipFiles(client, input, progress));
      return {
        json: result,
        text: `Wrote ${result.fileCount} files to ${result.out} (${formatBytes(result.archiveBytes)})`,
      };
    },
  },
};

/** Files by id, or a folder (--folder): one of the two. */
function toArchiveSelection(values: Values, fileIds: string[]): ArchiveSelection {
  if (values.folder !== undefined) {
    if (fileIds.length > 0) throw new ConfigError('--folder and file ids exclude each other');
    return { folder: { owner: values.owner, path: toSharedFolder(values.folder) } };
  }
  if (values.owner !== undefined) throw new ConfigError('--owner names the owner of a --folder');
  if (fileIds.length === 0) throw new ConfigError('a folder (--folder path/) or file ids are needed');
  return { fileIds };
}
