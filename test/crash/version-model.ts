import { etagsOf } from '../support/byte-streams.ts';
import type { SeededRandom } from '../support/seeded-random.ts';
import type { Answer } from './crash-round.ts';

// What the versions-and-trash crash round (versions-round.ts) knows of each lineage's files.

/** Bytes as a client knows them: every tag a store may give them, and their length. */
export type Content = { etags: string[]; sizeBytes: number };

/** Where a file is: in `files`, in its owner's trash, or gone. */
export type Place = 'live' | 'trashed' | 'purged';

/**
 * A file's state as its client knows it: its current version (`versionId` '?': a restore cut
 * off before its answer made one whose id nobody saw), its earlier versions, newest first.
 */
export type FileState = { place: Place; versionId: string; earlier: string[]; held: boolean };

export type KnownFile = {
  fileId: string;
  filePath: string;
  /** Every version the client made or saw, by id: the bytes each must read back with. */
  contents: Map<string, Content>;
  state: FileState;
  /** The state the step cut off by the kill left if it applied (the file keeps `state` if not). */
  ifApplied?: FileState & { content?: Content };
};

export type StepKind =
  | 'replace'
  | 'restoreVersion'
  | 'deleteVersion'
  | 'copy'
  | 'hold'
  | 'release'
  | 'trash'
  | 'restore'
  | 'purge'
  | 'empty';

/** One step as sent; `answer` absent: the kill cut it off. */
export type VersionStep = { kind: StepKind; fileId: string; answer?: Answer; expected: number };

/** A replace whose version upload is still pending after the kill: verify may finish it. */
export type PendingReplace = {
  file: KnownFile;
  versionId: string;
  verifyPath: string;
  put: Content & { sent: boolean; answered: boolean };
};

export type Lineage = {
  index: number;
  random: SeededRandom;
  token: string;
  files: KnownFile[];
  steps: VersionStep[];
  /** A copy cut off by the kill: it exists whole at this path or not at all. */
  pendingCopy?: { filePath: string; content: Content };
  pendingReplace?: PendingReplace;
};

export const toContent = (body: Buffer): Content => ({ etags: etagsOf(body), sizeBytes: body.length });
