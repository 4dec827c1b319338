/** One app credential (`sb-app-id` + `sb-app-secret`); a project holds one or more. */
export type AppCredential = {
  appId: string;
  projectId: string;
  /** SHA-256 (hex) of the app secret; the secret itself is shown once, at creation. */
  secretHash: string;
  createdAt: Date;
};

/** App credentials; every change reaches every process at its next access-epoch read. */
export interface AppCredentialRepository {
  create(credential: AppCredential): Promise<void>;
  findByAppId(appId: string): Promise<AppCredential | undefined>;
  /** The project's credentials, oldest first. */
  listByProject(projectId: string): Promise<AppCredential[]>;
  /**
   * Deletes the credential of this project; with `keepOne`, only while the project holds
   * another (checked in the same transaction). Answers 'deleted', 'missing' or 'last'.
   */
  delete(
    projectId: string,
    appId: string,
    options: { keepOne: boolean },
  ): Promise<'deleted' | 'missing' | 'last'>;
}
