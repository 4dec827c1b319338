import type { Kysely, Selectable } from 'kysely';
import type { NewEvent } from '../../domain/events/event.ts';
import { anonymousRole } from '../../domain/identity/accounts.ts';
import type {
  AnonymousConversion,
  NewUser,
  User,
  UserRepository,
} from '../../domain/identity/user-repository.ts';
import { emailTaken } from '../../errors/errors.ts';
import { isUniqueViolation } from '../database-errors.ts';
import type { DatabaseSchema, UsersTable } from '../database-schema.ts';
import { insertEvents } from './events/insert-events.ts';
import { prepareQuery } from './prepared-query.ts';
import { writeTransaction } from './write-transaction.ts';

export class KyselyUserRepository implements UserRepository {
  readonly #db: Kysely<DatabaseSchema>;

  /** Every authenticated request reads its user: compiled once (prepared-query.ts). */
  readonly #selectById: (projectId: string, id: string) => Promise<Selectable<UsersTable>[]>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#selectById = prepareQuery(
      db,
      (projectId: string, id: string) =>
        db.selectFrom('users').selectAll().where('project_id', '=', projectId).where('id', '=', id),
      ['', ''],
    );
  }

  async create(user: NewUser, event?: NewEvent): Promise<User> {
    const now = Date.now();
    const row = {
      id: user.id,
      project_id: user.projectId,
      email: user.email,
      email_normalized: normalizeEmail(user.email),
      password_hash: user.passwordHash,
      role: user.role,
      display_name: user.displayName,
      enabled: user.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
      version: 0,
      email_verified_at: null,
    };
    try {
      await writeTransaction(this.#db, async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await insertEvents(trx, [event]);
      });
    } catch (error) {
      // The unique key (project_id, email_normalized) makes this race-free: two concurrent
      // signups with one address cannot both pass.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    return toUser(row);
  }

  async findById(projectId: string, id: string): Promise<User | undefined> {
    const [row] = await this.#selectById(projectId, id);
    return row && toUser(row);
  }

  async findByEmail(projectId: string, email: string): Promise<User | undefined> {
    const row = await this.#db
      .selectFrom('users')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('email_normalized', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row && toUser(row);
  }

  setRole(projectId: string, id: string, role: string, event?: NewEvent): Promise<User | undefined> {
    return this.#update(projectId, id, { role }, event);
  }

  setEnabled(projectId: string, id: string, enabled: boolean, event?: NewEvent): Promise<User | undefined> {
    return this.#update(projectId, id, { enabled: enabled ? 1 : 0 }, event);
  }

  setPasswordHash(
    projectId: string,
    id: string,
    passwordHash: string,
    event?: NewEvent,
  ): Promise<User | undefined> {
    return this.#update(projectId, id, { password_hash: passwordHash }, event);
  }

  async convertAnonymous(
    projectId: string,
    id: string,
    change: AnonymousConversion,
    event: NewEvent,
  ): Promise<User | undefined> {
    try {
      return await writeTransaction(this.#db, async (trx) => {
        const row = await convertAnonymousUser(trx, { projectId, id }, change, new Date());
        if (row) await insertEvents(trx, [event]);
        return row && toUser(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async list(
    projectId: string,
    page: { after?: string; limit: number },
  ): Promise<{ users: User[]; next?: string }> {
    // The unique key (project_id, email_normalized) orders the page: an index range, no sort.
    let query = this.#db.selectFrom('users').selectAll().where('project_id', '=', projectId);
    if (page.after !== undefined) query = query.where('email_normalized', '>', page.after);
    const rows = await query.orderBy('email_normalized').limit(page.limit).execute();
    const last = rows.at(-1);
    const next = rows.length === page.limit && last ? last.email_normalized : undefined;
    return { users: rows.map(toUser), next };
  }

  async delete(projectId: string, id: string, event?: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const result = await trx
        .deleteFrom('users')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) return false;
      // The user's folder shares, given and received, go with them (issue 36); a file's ACL
      // entries naming them stay inert, as before (ids are never reused).
      await trx
        .deleteFrom('folder_shares')
        .where('project_id', '=', projectId)
        .where((eb) =>
          eb.or([eb('owner_id', '=', id), eb.and([eb('scope', '=', 'user'), eb('identifier', '=', id)])]),
        )
        .execute();
      // So do its identities (issue 37): a provider or trusted issuer's `sub` that comes back
      // makes a new user, instead of naming one that is gone.
      await trx
        .deleteFrom('user_identities')
        .where('project_id', '=', projectId)
        .where('user_id', '=', id)
        .execute();
      // And its passkeys (issue 41), with any challenge handed out to it.
      await trx
        .deleteFrom('passkeys')
        .where('project_id', '=', projectId)
        .where('user_id', '=', id)
        .execute();
      await trx
        .deleteFrom('passkey_challenges')
        .where('project_id', '=', projectId)
        .where('user_id', '=', id)
        .execute();
      // And its second factors (issue 41): a secret of a user that is gone helps nobody.
      for (const table of ['user_totp', 'recovery_codes', 'mfa_tokens'] as const)
        await trx.deleteFrom(table).where('project_id', '=', projectId).where('user_id', '=', id).execute();
      await insertEvents(trx, [event]);
      return true;
    });
  }

  /** The change, version + 1 and updated_at, returning the new row; with its event, in one transaction. */
  async #update(
    projectId: string,
    id: string,
    change: { role: string } | { enabled: number } | { password_hash: string },
    event?: NewEvent,
  ): Promise<User | undefined> {
    const update = (db: Kysely<DatabaseSchema>) =>
      db
        .updateTable('users')
        .set((eb) => ({ ...change, version: eb('version', '+', 1), updated_at: Date.now() }))
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    if (!event) {
      const row = await update(this.#db);
      return row && toUser(row);
    }
    return writeTransaction(this.#db, async (trx) => {
      const row = await update(trx);
      if (row) await insertEvents(trx, [event]);
      return row && toUser(row);
    });
  }
}

/**
 * Turns an anonymous account into a member in the caller's transaction: undefined when it is
 * no longer anonymous (a concurrent conversion won: the role guard makes the update its lock).
 * Its sessions go in the same transaction (the session epoch's trigger tells every node), so no
 * guest token outlives the change. A unique violation (the address is taken) is the caller's.
 */
export async function convertAnonymousUser(
  trx: Kysely<DatabaseSchema>,
  user: { projectId: string; id: string },
  change: AnonymousConversion,
  now: Date,
): Promise<Selectable<UsersTable> | undefined> {
  const row = await trx
    .updateTable('users')
    .set((eb) => ({
      email: change.email,
      email_normalized: normalizeEmail(change.email),
      password_hash: change.passwordHash,
      role: change.role,
      display_name: change.displayName,
      email_verified_at: change.emailVerifiedAt?.getTime() ?? null,
      version: eb('version', '+', 1),
      updated_at: now.getTime(),
    }))
    .where('project_id', '=', user.projectId)
    .where('id', '=', user.id)
    .where('role', '=', anonymousRole)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await trx
    .deleteFrom('refresh_token_families')
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.id)
    .execute();
  return row;
}

/** The form uniqueness and lookups use: `Ann@Example.com ` and `ann@example.com` are one account. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    passwordHash: row.password_hash,
    role: row.role,
    displayName: row.display_name,
    enabled: row.enabled === 1,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: row.version,
    emailVerifiedAt: row.email_verified_at === null ? null : new Date(Number(row.email_verified_at)),
  };
}
