import { type CofferClient, CofferError, type ShareWith } from '../../packages/client/src/index.ts';
import { ConfigError } from '../config/config-error.ts';

// `coffer files share <file> --email E` (issue 43 item 5): the file named by its path as well as
// by its id, and an email no user of the project has is a value to fix (exit 2), said plainly.

/** What a share lets the grantee do: Coffer's shares grant reading (a file's ACL has no other level). */
const permissions = ['read'] as const;

/** `--permission`: read (the default) is the only one; anything else is refused, naming why. */
export function assertSharePermission(permission: string | undefined): void {
  if (permission === undefined || (permissions as readonly string[]).includes(permission)) return;
  throw new ConfigError(
    `--permission ${permission}: a share lets the grantee read (${permissions.join('|')}); only the owner and the project's admins change a file`,
  );
}

/**
 * The id of the file an argument names: the caller's readable file at exactly that path, else
 * the argument itself as an id. Two files at one path (another user's, shared) need the id.
 */
export async function toFileId(client: CofferClient, argument: string): Promise<string> {
  const matches: string[] = [];
  for await (const file of client.list({ filePath: argument, pageSize: 100 })) {
    if (file.filePath === argument) matches.push(file._id);
  }
  if (matches.length > 1)
    throw new ConfigError(
      `${matches.length} files you may read are at ${argument}: name one by id (${matches.join(', ')})`,
    );
  return matches[0] ?? argument;
}

/** Runs a share; an email no user of the project has becomes a ConfigError naming it (exit 2). */
export async function withKnownGrantee<T>(with_: ShareWith, share: () => Promise<T>): Promise<T> {
  try {
    return await share();
  } catch (error) {
    if ('email' in with_ && error instanceof CofferError && error.code === 'USER_NOT_FOUND')
      throw new ConfigError(
        `--email ${with_.email}: no user of this project has this email (USER_NOT_FOUND); they sign up first, or check the address`,
      );
    throw error;
  }
}
