import { ConfigError } from '../config/config-error.ts';
import { formatBytes } from '../domain/format-bytes.ts';
import type { Command } from './command.ts';
import { credentialsFilePath } from './credentials-file.ts';
import { downloadFile, listFiles, login, logout, toShareTarget, withSession } from './files-commands.ts';
import { createProgress } from './progress.ts';
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
    summary: 'List the files you may read, newest first (--prefix narrows to a filePath prefix).',
    flags: ['prefix', 'json'],
    run: async (_config, values) => {
      await withSession(process.env, async (client) => {
        for await (const file of listFiles(client, values.prefix)) {
          const length = file.meta.ContentLength;
          const size = length === undefined ? 'unverified' : formatBytes(Number(length));
          console.log(
            values.json ? JSON.stringify(file) : `${file._id}  ${size.padStart(10)}  ${file.filePath}`,
          );
        }
      });
      return undefined; // printed file by file
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
    summary: 'Let a user (--user) or a role (--role) read a file.',
    flags: ['user', 'role', 'json'],
    args: ['<fileId>'],
    run: async (_config, values, [fileId]) => {
      const target = toShareTarget(values);
      const file = await withSession(process.env, (client) => client.share(fileId!, target));
      return { json: file, text: `${file._id} is shared with: ${toAclText(file.acl)}` };
    },
  },
  'files unshare': {
    summary: "Remove a user's (--user) or a role's (--role) access to a file.",
    flags: ['user', 'role', 'json'],
    args: ['<fileId>'],
    run: async (_config, values, [fileId]) => {
      const target = toShareTarget(values);
      await withSession(process.env, (client) => client.unshare(fileId!, target));
      const entry = 'userId' in target ? `user:${target.userId}` : `role:${target.role}`;
      return { json: { fileId, unshared: target }, text: `${fileId} is no longer shared with ${entry}` };
    },
  },
  'files rm': {
    summary: 'Delete files (their records and bytes).',
    flags: ['json'],
    args: ['<fileId>...'],
    run: async (_config, _values, fileIds) => {
      await withSession(process.env, async (client) => {
        for (const fileId of fileIds) await client.delete(fileId);
      });
      return { json: { deleted: fileIds }, text: `Deleted ${fileIds.join(' ')}` };
    },
  },
};

function toAclText(acl: readonly { scope: string; identifier: string }[]): string {
  return acl.map((entry) => `${entry.scope}:${entry.identifier}`).join(' ') || 'nobody else';
}
