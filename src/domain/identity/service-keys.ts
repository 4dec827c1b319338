import { hash } from 'node:crypto';
import { accessDenied, invalidToken, notFound, validationFailed } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { Clock } from '../clock.ts';
import { newSecret } from '../ids.ts';
import type { AccessEpochWatch } from './access-epoch-watch.ts';
import { EpochCache } from './epoch-cache.ts';
import type { Project } from './project-repository.ts';
import type { ServiceKey, ServiceKeyRepository } from './service-key-repository.ts';

/** What every service key starts with: the bearer barrier tells it from a JWT by it. */
export const serviceKeyPrefix = 'csk_';
/** A service key's principal is `service-key:<name>` (file-events.ts turns it into its actor). */
export const serviceKeyPrincipalPrefix = 'service-key:';

const namePattern = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** Whether a bearer token is a service key (by its form; it may still be unknown). */
export function isServiceKeyToken(token: string): boolean {
  return token.startsWith(serviceKeyPrefix);
}

/** Whether the principal is a service key rather than a user (it owns no files, has no profile). */
export function isServiceKeyPrincipal(principal: Pick<Principal, 'userId'>): boolean {
  return principal.userId.startsWith(serviceKeyPrincipalPrefix);
}

/** A new key: the key exists only in this answer (it is stored hashed). */
export type IssuedServiceKey = { projectId: string; name: string; key: string; createdAt: string };

/**
 * `coffer project key create <p> --name <n>`: a new key, shown once. Service keys (issue 35) are
 * the server-only credential that administers a project (webhooks, the audit log, every file
 * and user). security: the app secret ships inside apps, so it is public and grants nothing a
 * signed-out client could not do; admin powers need a service key or an admin user's token.
 */
export async function createServiceKey(
  repository: ServiceKeyRepository,
  project: Project,
  input: { name: string; clock: Clock },
): Promise<IssuedServiceKey> {
  const { name } = input;
  if (!namePattern.test(name))
    throw validationFailed(
      'A service key name is 1 to 63 lowercase letters, digits, dots, dashes or underscores, starting with a letter or digit',
    );
  const key = `${serviceKeyPrefix}${newSecret()}`;
  const createdAt = input.clock.now();
  const created = await repository.create({
    projectId: project.id,
    name,
    keyHash: hashServiceKey(key),
    createdAt,
  });
  if (!created) throw validationFailed(`project ${project.name} already has a service key named ${name}`);
  return { projectId: project.id, name, key, createdAt: createdAt.toISOString() };
}

/** `coffer project key list <p>`: the keys by name (never the keys: only their hashes are kept). */
export async function listServiceKeys(
  repository: ServiceKeyRepository,
  project: Project,
): Promise<{ name: string; createdAt: string }[]> {
  const keys = await repository.listByProject(project.id);
  return keys.map((key) => ({ name: key.name, createdAt: key.createdAt.toISOString() }));
}

/**
 * `coffer project key revoke <p> --name <n>`: the delete bumps the access epoch, so every process
 * and node refuses the key at its next epoch read; NOT_FOUND when there is no such key.
 */
export async function revokeServiceKey(
  repository: ServiceKeyRepository,
  project: Project,
  name: string,
): Promise<void> {
  if (!(await repository.delete(project.id, name)))
    throw notFound(`service key ${JSON.stringify(name)} in project ${project.name}`);
}

/**
 * Checks service keys on every call that brings one. Keys are 256 random bits, so SHA-256 at
 * rest is enough (nothing to brute-force), and they are found by that hash: timing on the
 * lookup tells bits of a hash, never of a key. Found keys are cached until the access epoch
 * moves (a revoke moves it); unknown ones are never cached.
 */
export class ServiceKeys {
  readonly #repository: ServiceKeyRepository;
  readonly #byHash: EpochCache<ServiceKey>;

  constructor(options: { repository: ServiceKeyRepository; accessEpoch: AccessEpochWatch }) {
    this.#repository = options.repository;
    this.#byHash = new EpochCache(options.accessEpoch);
  }

  /** The project-admin principal of a key of this project; INVALID_TOKEN for any other. */
  async authenticate(project: Project, token: string): Promise<Principal> {
    const keyHash = hashServiceKey(token);
    const key = await this.#byHash.get(keyHash, () => this.#repository.findByHash(keyHash));
    // Found by its hash, so the hash matches: what is left to check is the project.
    if (!key || key.projectId !== project.id) throw invalidToken();
    return {
      userId: `${serviceKeyPrincipalPrefix}${key.name}`,
      projectId: project.id,
      role: project.adminRole,
      isAdmin: true,
    };
  }
}

/** The form a service key is stored in: SHA-256, hex. */
export function hashServiceKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** ACCESS_DENIED for a service key where only a user may act (their profile, files they would own). */
export function assertActsForUser(principal: Pick<Principal, 'userId'>): void {
  if (isServiceKeyPrincipal(principal))
    throw accessDenied(
      "A service key acts for no user: this needs a user's token (files are owned by users)",
    );
}
