/**
 * A number the database bumps whenever a project or a user changes or is removed, by any
 * process or node: caches of projects and users stay valid while it stays the same.
 */
export interface AccessEpochRepository {
  read(): Promise<number>;
}
