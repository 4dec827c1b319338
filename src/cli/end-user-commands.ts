import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command } from './command.ts';
import { credentialsFilePath } from './credentials-file.ts';
import { downloadFile, listFiles, login, logout, toFileLine, withSession } from './files-commands.ts';
import { assertNotFolder, deleteFolders, moveFolder, printFolderTree } from './folder-commands.ts';
import { createProgress } from './progress.ts';
import {
  changeFolderShare,
  isFolderArgument,
  listFolderShares,
  printSharedWithMe,
  toGranteeText,
  toShareWith,
} from './share-commands.ts';
import { assertSharePermission, toFileId, withKnownGrantee } from './share-file.ts';
import { toResumeLine, uploadFile } from './upload-file.ts';
import { uploadResumeFilePath } from './upload-resume-file.ts';

/** `coffer login`, `logout` and `files …`: a user's own commands against a running server. */
export const endUserCommands: Record<string, Command> = {
  login: {
    summary: 'Log in to a running server as a user; keeps the session in a 0600 credentials file.',
    flags: ['url', 'app-id', 'email', 'password-stdin', 'json'],
    run: async (_config, values) => {
      if (!values.email) throw new ConfigError('--email is required');
      const result = await login(process.env, {
        url: values.url,
        appId: values['app-id'],
        email: values.email,
        passwordFromStdin: values['password-stdin'] === true,
      });
      return {
        json: result,
        text: `Logged in to ${result.url} as ${result.email} (${result.credentialsFile})`,
      };
    },
  },
  logout: {
    summary: 'End the saved session on the server and remove the credentials file.',
    flags: ['json'],
    run: async () => {
      const result = await logout(process.env);
      return { json: result, text: `Logged out ${result.loggedOut}` };
    },
  },
  'files ls': {
    summary:
      'List the files you may read, newest first (--prefix narrows to a filePath prefix); with a folder (photos/, / for your root), its tree with sizes.',
    flags: ['prefix', 'owner', 'json'],
    args: ['[folder/]'],
    run: async (_config, values, [folder]) => {
      const json = values.json === true;
      if (folder !== undefined && values.prefix !== undefined)
        throw new ConfigError('a folder and --prefix exclude each other');
      if (folder === undefined && values.owner !== undefined)
        throw new ConfigError(
          '--owner names the owner of a folder: coffer files ls <folder/> --owner <userId>',
        );
      await withSession(process.env, async (client) => {
        if (folder !== undefined) return printFolderTree(client, folder, { owner: values.owner, json });
        for await (const file of listFiles(client, values.prefix))
          console.log(json ? JSON.stringify(file) : toFileLine(file));
      });
      return undefined; // printed line by line
    },
  },
  'files upload': {
    summary:
      'Upload a local file (request, send, verify; over 8 MiB, run again after an interruption, it resumes); --path names it (its base name by default).',
    flags: ['path', 'json'],
    args: ['<localPath>'],
    run: async (_config, values, [localPath]) => {
      const json = values.json === true;
      const progress = createProgress('upload', { json });
      const resumeFile = uploadResumeFilePath(credentialsFilePath(process.env));
      const input = { localPath: localPath!, filePath: values.path, resumeFile };
      const file = await withSession(process.env, (client) =>
        uploadFile(client, input, progress, (notice) => process.stderr.write(toResumeLine(notice, json))),
      );
      return { json: file, text: `Uploaded ${file.filePath} as ${file._id}` };
    },
  },
  'files download': {
    summary: "Download a file's content to --out (the file's base name by default; --force overwrites).",
    flags: ['out', 'force', 'json'],
    args: ['<fileId>'],
    run: async (_config, values, [fileId]) => {
      const progress = createProgress('download', { json: values.json === true });
      const input = { fileId: fileId!, out: values.out, force: values.force === true };
      const result = await withSession(process.env, (client) => downloadFile(client, input, progress));
      return {
        json: result,
        text: `Downloaded ${result.fileId} to ${result.out} (${formatBytes(result.sizeBytes)})`,
      };
    },
  },
  'files share': {
    summary:
      "Let a user (--user, --email: one of the project's users) or a role (--role) read a file (by its path or id); or, with a folder (photos/, / for your root), every file under it, present and future.",
    flags: ['user', 'role', 'email', 'permission', 'owner', 'json'],
    args: ['<filePath|fileId|folder/>'],
    run: async (_config, values, [target]) => {
      const with_ = toShareWith(values);
      assertSharePermission(values.permission);
      if (isFolderArgument(target!))
        return withSession(process.env, (client) =>
          withKnownGrantee(with_, () =>
            changeFolderShare(client, { action: 'share', path: target!, with: with_, owner: values.owner }),
          ),
        );
      assertNoOwner(values.owner, 'share');
      const file = await withSession(process.env, async (client) => {
        const fileId = await toFileId(client, target!);
        return withKnownGrantee(with_, () => client.share(fileId, with_));
      });
      return { json: file, text: `${file.filePath} (${file._id}) is shared with: ${toAclText(file.acl)}` };
    },
  },
  'files unshare': {
    summary:
      "Remove a user's (--user) or a role's (--role) access to a file; with a folder, the folder's share (--email too), ending its links.",
    flags: ['user', 'role', 'email', 'owner', 'json'],
    args: ['<fileId|folder/>'],
    run: async (_config, values, [target]) => {
      const with_ = toShareWith(values);
      if (isFolderArgument(target!))
        return withSession(process.env, (client) =>
          changeFolderShare(client, { action: 'unshare', path: target!, with: with_, owner: values.owner }),
        );
      assertNoOwner(values.owner, 'unshare');
      // The API removes a file's entry by id or role only: the ACL keeps ids, never emails.
      if ('email' in with_)
        throw new ConfigError("--email unshares a folder; a file's entry names the user by id (--user)");
      await withSession(process.env, (client) => client.unshare(target!, with_));
      return {
        json: { fileId: target, unshared: with_ },
        text: `${target} is no longer shared with ${toGranteeText(with_)}`,
      };
    },
  },
  'files shares': {
    summary:
      "The shares reaching a folder (/ for your root): its own and its ancestors', each with the folder it is on.",
    flags: ['owner', 'json'],
    args: ['<folder/>'],
    run: async (_config, values, [folder]) =>
      withSession(process.env, (client) => listFolderShares(client, { path: folder!, owner: values.owner })),
  },
  shared: {
    summary:
      'What other users shared with you (files and folders, by id or by your role), newest first, every page.',
    flags: ['json'],
    run: async (_config, values) => {
      await withSession(process.env, (client) => printSharedWithMe(client, { json: values.json === true }));
      return undefined; // printed line by line
    },
  },
  'files mv': {
    summary:
      'Move a file to a new filePath; with -r, every file under a folder to another folder, in one transaction (all or nothing).',
    flags: ['recursive', 'owner', 'json'],
    args: ['<fileId|from/>', '<filePath|to/>'],
    run: async (_config, values, [from, to]) => {
      if (values.recursive)
        return withSession(process.env, (client) =>
          moveFolder(client, { from: from!, to: to!, owner: values.owner }),
        );
      assertFileForm(from!, 'mv', values.owner);
      const file = await withSession(process.env, (client) => client.move(from!, { filePath: to! }));
      return { json: file, text: `Moved ${file._id} to ${file.filePath}` };
    },
  },
  'files rm': {
    summary:
      'Delete files (to the trash while the project keeps one: coffer files trash; else for good); with -r, every file under each folder, a folder a transaction.',
    flags: ['recursive', 'owner', 'json'],
    args: ['<fileId|folder/>...'],
    run: async (_config, values, args) => {
      if (values.recursive)
        return withSession(process.env, (client) =>
          deleteFolders(client, { paths: args, owner: values.owner }),
        );
      for (const fileId of args) assertFileForm(fileId, 'rm', values.owner);
      await withSession(process.env, async (client) => {
        for (const fileId of args) await client.delete(fileId);
      });
      return { json: { deleted: args }, text: `Deleted ${args.join(' ')}` };
    },
  },
};

/** Without -r, mv and rm take file ids: a folder, or --owner (a folder's), is a mistake to point out. */
function assertFileForm(argument: string, command: string, owner: string | undefined): void {
  assertNotFolder(argument, command);
  if (owner !== undefined)
    throw new ConfigError(`--owner names a folder's owner: coffer files ${command} -r`);
}

/** A file id has no owner to name: --owner goes with a folder only. */
function assertNoOwner(owner: string | undefined, command: string): void {
  if (owner !== undefined)
    throw new ConfigError(`--owner names a folder's owner: coffer files ${command} <folder/>`);
}

function toAclText(acl: readonly { scope: string; identifier: string }[]): string {
  return acl.map((entry) => `${entry.scope}:${entry.identifier}`).join(' ') || 'nobody else';
}
