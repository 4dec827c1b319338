import { setTimeout as sleep } from 'node:timers/promises';
import { openBlobStore } from '../blob-stores/open-blob-store.ts';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { FileQuarantine } from '../domain/admission/file-quarantine.ts';
import { type RescanReport, rescanProject } from '../domain/admission/rescan.ts';
import type { Scanner } from '../domain/admission/scanner.ts';
import { systemClock } from '../domain/clock.ts';
import { accessEpochCheckIntervalMs } from '../domain/identity/access-epoch-watch.ts';
import { openStores } from '../wiring/open-stores.ts';
import { getProject } from './admin-commands.ts';
import type { ProgressReporter } from './progress.ts';

/**
 * `coffer scan <project> [--since <date>]` (issue 42, item 2): re-checks the project's stored
 * verified versions created since the date (all of them without it) through the scanner, after
 * a signature update; a hit quarantines the file. Works on the stores directly, beside running
 * servers: a quarantine commits with its event and moves the file's row stamp and links
 * generation on, which every server reads within 250 ms (issue 44: their hot reads trust a
 * record for that long). It returns only once they have, so a file is refused everywhere when
 * the command ends, as before.
 */
export async function scanProject(
  config: Config,
  input: { project: string; since?: Date; scanner: Scanner; progress: ProgressReporter; pageSize?: number },
): Promise<RescanReport> {
  const since = input.since ?? new Date(0);
  const { database, repositories } = await openStores(config, (line) => console.error(line));
  const blobs = await openBlobStore(config.storageUrl);
  try {
    const project = await getProject(repositories, input.project);
    const fileQuarantine = new FileQuarantine({
      files: repositories.files,
      quarantine: repositories.quarantine,
      clock: systemClock,
    });
    input.progress.phase('scan');
    const report = await rescanProject(
      { quarantine: repositories.quarantine, fileQuarantine, blobs, scanner: input.scanner },
      {
        projectId: project.id,
        since,
        onScanned: (version) => input.progress.advance(1, version.sizeBytes),
        ...(input.pageSize !== undefined && { pageSize: input.pageSize }),
      },
    );
    input.progress.finish();
    if (report.infected.some((hit) => hit.quarantined)) await sleep(accessEpochCheckIntervalMs + 10);
    return report;
  } finally {
    await database.close();
    if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
  }
}

/** `--since`: an ISO 8601 date or time; absent, the beginning (every stored version). */
export function toSince(since: string | undefined): Date | undefined {
  if (since === undefined) return undefined;
  const date = new Date(since);
  if (!/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(date.getTime()))
    throw new ConfigError(`--since: ${JSON.stringify(since)} is not an ISO 8601 date (e.g. 2026-11-01)`);
  return date;
}

/** The summary for people: counts, one line per hit and per skipped version, and where to resume. */
export function toScanText(report: RescanReport): string {
  const lines = [
    `Scanned ${report.scanned} stored versions (${report.scannedBytes} bytes) of project ${report.projectId} created since ${report.since}.`,
    report.infected.length === 0
      ? 'Nothing infected.'
      : `${report.infected.length} infected; ${report.infected.filter((hit) => hit.quarantined).length} files quarantined now:`,
    ...report.infected.map(
      (hit) =>
        `infected\t${hit.fileId}\t${hit.versionId}\t${hit.signature}${hit.quarantined ? '' : '\t(already quarantined)'}`,
    ),
    ...report.skipped.map(
      (skip) =>
        `skipped\t${skip.fileId}\t${skip.versionId}\t${skip.reason === 'oversize' ? 'larger than the scanner takes' : 'bytes missing from the store'}`,
    ),
  ];
  if (report.resumeSince !== undefined)
    lines.push(`Stopped: ${report.error}. Resume with --since ${report.resumeSince}`);
  return lines.join('\n');
}
