import { once } from 'node:events';
import type { Config } from '../config/config.ts';
import { toUserView, type UserView } from '../domain/identity/user-view.ts';
import { getProject, withStores } from './admin-commands.ts';

/** The text form: id, email, role, state, separated by two spaces. */
export function toUserLine(user: UserView): string {
  return [user.userId, user.email, user.role, user.enabled ? 'enabled' : 'disabled'].join('  ');
}

/**
 * Users a page at a time, in email order, each printed as it comes: a million never sit in
 * memory. A reader that goes away (`| head`) ends the listing quietly, as it ends `ls`.
 */
export async function userList(config: Config, input: { project: string; json: boolean }): Promise<number> {
  let readerGone = false;
  const onError = () => {
    readerGone = true;
  };
  process.stdout.on('error', onError);
  try {
    return await withStores(config, async (repositories) => {
      const project = await getProject(repositories, input.project);
      let count = 0;
      let after: string | undefined;
      do {
        const page = await repositories.users.list(project.id, { after, limit: 500 });
        for (const user of page.users) {
          const view = toUserView(user);
          if (readerGone || !(await writeLine(input.json ? JSON.stringify(view) : toUserLine(view))))
            return count;
          count += 1;
        }
        after = page.next;
      } while (after !== undefined);
      return count;
    });
  } finally {
    process.stdout.off('error', onError);
  }
}

/** One line to stdout, waiting for the pipe when it is full (a slow reader, `| less`); false once it broke. */
async function writeLine(line: string): Promise<boolean> {
  const { stdout } = process;
  if (stdout.destroyed) return false;
  if (stdout.write(`${line}\n`)) return true;
  // The waits are cancelled once one ends, so no listener is left behind per full pipe.
  const waits = new AbortController();
  const { signal } = waits;
  try {
    return await Promise.race([
      once(stdout, 'drain', { signal }).then(() => true),
      once(stdout, 'close', { signal }).then(() => false),
    ]);
  } catch {
    return false; // 'error' while waiting: the reader went away
  } finally {
    waits.abort();
  }
}
