/**
 * The processes that hold upload leases (issue 35, item 3). A lease records its holder, so a
 * process that died frees its uploads as soon as its death can be known rather than when the
 * lease lapses: on the holder's own node, a process that no longer runs is dead (a kill -9 of
 * one worker, or of `coffer serve` and all its workers before a restart); on another node only
 * the lease's expiry can tell.
 */
export interface LeaseHolders {
  /** This process, as a lease records its holder. */
  readonly self: string;
  /** Whether `holder` (another lease's) is known to be gone; false when this process cannot tell. */
  isGone(holder: string): Promise<boolean>;
}

/** Holders of which nothing can be told (no process table to ask): leases free at expiry only. */
export const unknownLeaseHolders: LeaseHolders = {
  self: 'unknown',
  isGone: async () => false,
};
