import { AppError } from './app-error.ts';
import { toFileIdDetails } from './errors.ts';

// Quarantine's refusals (issue 42, item 2): a file a re-scan found infected.

/**
 * A quarantined file: its bytes are served to no one, in any form, until a project admin
 * releases it (or deletes it). 451: the content is withheld on purpose.
 */
export const fileQuarantined = (signature?: string) =>
  new AppError(
    'FILE_QUARANTINED',
    signature === undefined
      ? 'The file is quarantined: a scan found malware in it; a project admin may release or delete it'
      : `The file is quarantined: a scan found ${JSON.stringify(signature)} in it; a project admin may release or delete it`,
  );

/** Quarantined files in an archive's selection (issue 40): none is made. */
export const archiveFilesQuarantined = (fileIds: readonly string[]) =>
  new AppError('FILE_QUARANTINED', `${fileIds.length} of these files are quarantined; no archive was made`, {
    details: toFileIdDetails(fileIds),
  });
