import type { ProjectSettings } from './project-settings.ts';

export type Project = {
  id: string;
  name: string;
  /**
   * The app id the project was created with (its first app credential, which may have been
   * revoked since): the live credentials are the AppCredentialRepository's.
   */
  appId: string;
  allowedOrigins: string[];
  /** The admin role given at creation: the default of settings.adminRoles (project-settings.ts). */
  adminRole: string;
  settings: ProjectSettings;
  createdAt: Date;
};

/** With the SHA-256 (hex) of its first app secret (shown once, at creation). */
export type NewProject = Omit<Project, 'createdAt'> & { appSecretHash: string };

export interface ProjectRepository {
  create(project: NewProject): Promise<Project>;
  findById(id: string): Promise<Project | undefined>;
  findByName(name: string): Promise<Project | undefined>;
  /** The project a live app credential names. */
  findByAppId(appId: string): Promise<Project | undefined>;
  /** Replaces the project's settings; undefined when there is no such project. */
  updateSettings(id: string, settings: ProjectSettings): Promise<Project | undefined>;
  /** Whether any project allows this origin (answers CORS preflights, which carry no app id). */
  isOriginAllowedAnywhere(origin: string): Promise<boolean>;
  /** Every project, by name (operators hold a handful, not millions). */
  list(): Promise<Project[]>;
  /** Adds and removes allowed origins in one transaction; undefined when there is no such project. */
  changeAllowedOrigins(
    id: string,
    change: { add: readonly string[]; remove: readonly string[] },
  ): Promise<Project | undefined>;
}
