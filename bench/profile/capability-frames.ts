/**
 * Issue 44 item 6, "the new capabilities cost nothing when unused": a server without folder
 * shares, versions, trash, scanning and admission hooks cannot be built to compare with, so the
 * evidence is the profile's: the share of a request's samples that had a frame of each
 * capability's code anywhere on the stack. That share bounds what removing the capability could
 * save the request; 0 ms means the request never entered its code.
 *   node bench/profile/capability-frames.ts <file.cpuprofile>
 * counts the whole profile, start-up and seeding included; profile-server.ts prints the same
 * groups for the load's window only, after its summary.
 */
import { readFileSync } from 'node:fs';
import { type FrameGroup, formatSummary, summarizeProfile } from './top-frames.ts';

/** A group of every script whose repository path matches one of the patterns. */
function scripts(name: string, patterns: RegExp[]): FrameGroup {
  return { name, has: (file) => file.startsWith('src/') && patterns.some((pattern) => pattern.test(file)) };
}

export const capabilityGroups: readonly FrameGroup[] = [
  // Not counted: canAccessFile's walk of a record's folder entries, the same loop (namesAny) as
  // its ACL entries' (a frame names the function, not the call).
  scripts('folder shares (issue 36)', [/\/folders\//, /folder-share/, /folder-acl-rows/, /shared-with/]),
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
