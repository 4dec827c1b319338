/**
 * Issue 44 item 6, "the new capabilities cost nothing when unused": a server without folder
 * shares, versions, trash, scanning and admission hooks cannot be built to compare with, so the
 * evidence is the profile's: the share of a request's samples that had a frame of each
 * capability's code anywhere on the stack. That share bounds what removing the capability could
 * save the request; 0 ms means the request never entered its code.
 *   node bench/profile/capability-frames.ts <file.cpuprofile>
 * (profile-server.ts prints the same groups after its summary.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type FrameGroup, formatSummary, summarizeProfile } from './top-frames.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Where canAccessFile reads a file's folder shares: its own line, the file ACL's beside it. */
const accessScript = 'src/domain/access/decide-file-access.ts';
const folderAclCheckLine =
  readFileSync(path.join(root, accessScript), 'utf8')
    .split('\n')
    .findIndex((text) => text.includes('file.folderAcl.some')) + 1;

/** A group of every script whose repository path matches one of the patterns. */
function scripts(name: string, patterns: RegExp[], also?: FrameGroup['has']): FrameGroup {
  return {
    name,
    has: (file, line) =>
      (file.startsWith('src/') && patterns.some((pattern) => pattern.test(file))) ||
      (also?.(file, line) ?? false),
  };
}

export const capabilityGroups: readonly FrameGroup[] = [
  scripts(
    'folder shares (issue 36)',
    [/\/folders\//, /folder-share/, /folder-acl-rows/, /shared-with/],
    (file, line) => file === accessScript && line === folderAclCheckLine,
  ),
  scripts('versions (issue 38)', [/\/versions\//, /version-/]),
  scripts('trash (issue 38)', [/\/trash\//, /trash-/]),
  scripts('scanning (issue 42)', [/\/admission\/scan/, /scan-/, /clamd/, /open-scanner/, /quarantin/]),
  scripts('admission hooks (issue 42)', [
    /admission-(hook|caller|record|verdict|repository)/,
    /admit-upload/,
  ]),
];

if (import.meta.main) {
  const [file] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/profile/capability-frames.ts <file.cpuprofile>');
    process.exit(2);
  }
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), 10, undefined, capabilityGroups);
  console.log(formatSummary(summary, 10));
}
