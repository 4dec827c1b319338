/** The bounds of the project settings whose parsers are written out in project-settings.ts. */

/** The most versions a file may keep, and the longest retention: bounds of what a sweep must walk. */
export const maxVersionsKept = 1000;
export const maxRetentionDays = 3650;
/** The highest maxVideoSeconds: a day of video. */
export const maxVideoSecondsLimit = 86_400;
/** The highest maxArchiveFiles: an archive's entries are rows written at once, at its creation. */
export const maxArchiveFilesLimit = 1_000_000;

/** The highest maxFolderOperationFiles: a million row changes is already a long transaction. */
export const maxFolderOperationFilesLimit = 1_000_000;

/** S3 refuses presigned URLs that live longer than 7 days. */
export const maxPresignedDownloadSeconds = 604_800;
