/**
 * A service key: a project's server-only credential (`csk_…`), sent as a bearer token with the
 * app id. It acts as a project admin; only its SHA-256 is stored (issue 35).
 */
export type ServiceKey = {
  projectId: string;
  /** Unique in its project: keys are listed and revoked by name. */
  name: string;
  /** SHA-256 (hex) of the key; the key itself is shown once, at creation. */
  keyHash: string;
  createdAt: Date;
};

/** Service keys; a revoke reaches every process at its next access-epoch read. */
export interface ServiceKeyRepository {
  /** Adds the key; answers false when its project already holds a key of that name. */
  create(key: ServiceKey): Promise<boolean>;
  findByHash(keyHash: string): Promise<ServiceKey | undefined>;
  /** The project's keys, oldest first. */
  listByProject(projectId: string): Promise<ServiceKey[]>;
  /** Deletes the key of that name; answers whether there was one. */
  delete(projectId: string, name: string): Promise<boolean>;
}
