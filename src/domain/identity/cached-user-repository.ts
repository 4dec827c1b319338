import type { NewEvent } from '../events/event.ts';
import type { AccessEpochWatch } from './access-epoch-watch.ts';
import { EpochCache } from './epoch-cache.ts';
import type { AnonymousConversion, NewUser, User, UserRepository } from './user-repository.ts';

/**
 * Users by id, for barrier 3 (every authenticated request reads its user). An entry is
 * trusted only while the access epoch's generation is the one it was read under, so a
 * disabled, re-roled or removed account is refused within the epoch's check interval on every
 * process and node, and at once in the process that changed it. Logins (findByEmail) always
 * read the database.
 */
export class CachedUserRepository implements UserRepository {
  readonly #users: UserRepository;
  readonly #watch: AccessEpochWatch;
  readonly #byId: EpochCache<User>;

  constructor(users: UserRepository, watch: AccessEpochWatch) {
    this.#users = users;
    this.#watch = watch;
    this.#byId = new EpochCache(watch);
  }

  findById(projectId: string, id: string): Promise<User | undefined> {
    return this.#byId.get(`${projectId}\n${id}`, () => this.#users.findById(projectId, id));
  }

  findByEmail(projectId: string, email: string): Promise<User | undefined> {
    return this.#users.findByEmail(projectId, email);
  }

  async create(user: NewUser, event?: NewEvent): Promise<User> {
    return this.#users.create(user, event);
  }

  setRole(projectId: string, id: string, role: string, event?: NewEvent): Promise<User | undefined> {
    return this.#changed(this.#users.setRole(projectId, id, role, event));
  }

  setEnabled(projectId: string, id: string, enabled: boolean, event?: NewEvent): Promise<User | undefined> {
    return this.#changed(this.#users.setEnabled(projectId, id, enabled, event));
  }

  setPasswordHash(
    projectId: string,
    id: string,
    passwordHash: string,
    event?: NewEvent,
  ): Promise<User | undefined> {
    return this.#changed(this.#users.setPasswordHash(projectId, id, passwordHash, event));
  }

  convertAnonymous(
    projectId: string,
    id: string,
    change: AnonymousConversion,
    event: NewEvent,
  ): Promise<User | undefined> {
    return this.#changed(this.#users.convertAnonymous(projectId, id, change, event));
  }

  list(
    projectId: string,
    page: { after?: string; limit: number },
  ): Promise<{ users: User[]; next?: string }> {
    return this.#users.list(projectId, page);
  }

  async delete(projectId: string, id: string, event?: NewEvent): Promise<boolean> {
    try {
      return await this.#users.delete(projectId, id, event);
    } finally {
      this.#watch.invalidate();
    }
  }

  async #changed(change: Promise<User | undefined>): Promise<User | undefined> {
    try {
      return await change;
    } finally {
      // Also after a failure: the statement may have committed before the error reached us.
      this.#watch.invalidate();
    }
  }
}
