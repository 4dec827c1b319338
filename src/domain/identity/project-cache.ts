import type { Project, ProjectRepository } from '../ports.ts';

/**
 * Projects by app id, kept for a few seconds: every API call names its app, and projects
 * change rarely (creating one needs no invalidation: unknown ids are never cached). A change
 * made by another process is seen within `ttlMs`.
 */
export class ProjectCache {
  readonly #projects: ProjectRepository;
  readonly #ttlMs: number;
  readonly #byAppId = new Map<string, { project: Project; until: number }>();

  constructor(projects: ProjectRepository, ttlMs = 5000) {
    this.#projects = projects;
    this.#ttlMs = ttlMs;
  }

  async findByAppId(appId: string, nowMs = Date.now()): Promise<Project | undefined> {
    const cached = this.#byAppId.get(appId);
    if (cached && cached.until > nowMs) return cached.project;
    const project = await this.#projects.findByAppId(appId);
    if (!project) return undefined;
    // Bounded: app ids come from clients; only real ones get here, but keep it small anyway.
    if (this.#byAppId.size >= 10_000) this.#byAppId.clear();
    this.#byAppId.set(appId, { project, until: nowMs + this.#ttlMs });
    return project;
  }
}
