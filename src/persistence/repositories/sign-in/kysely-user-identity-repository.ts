import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../domain/events/event.ts';
import type { AnonymousConversion, NewUser, User } from '../../../domain/identity/user-repository.ts';
import type { LinkedIdentity, UserIdentityRepository } from '../../../domain/sign-in/sign-in-repositories.ts';
import { accountExists, emailTaken, identityInUse } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { insertEvents } from '../events/insert-events.ts';
import { convertAnonymousUser, normalizeEmail, toUser } from '../kysely-user-repository.ts';
import { writeTransaction } from '../write-transaction.ts';

/** UserIdentityRepository over Kysely: the primary key (project, provider, subject) keeps one identity to one user. */
export class KyselyUserIdentityRepository implements UserIdentityRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async findUserId(projectId: string, provider: string, subject: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('user_identities')
      .select('user_id')
      .where('project_id', '=', projectId)
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.user_id;
  }

  async listByUser(projectId: string, userId: string): Promise<LinkedIdentity[]> {
    const rows = await this.#db
      .selectFrom('user_identities')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute();
    return rows.map((row) => ({
      provider: row.provider,
      subject: row.subject,
      userId: row.user_id,
      displayName: row.display_name,
      email: row.email,
    }));
  }

  async link(projectId: string, identity: LinkedIdentity, now: Date, event?: NewEvent): Promise<boolean> {
    try {
      await writeTransaction(this.#db, async (trx) => {
        await trx
          .insertInto('user_identities')
          .values(toRow(projectId, identity, now))
          .execute();
        await insertEvents(trx, [event]);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async createUser(
    user: NewUser,
    emailVerifiedAt: Date | null,
    identity: LinkedIdentity,
    now: Date,
    events: NewEvent[],
  ): Promise<User> {
    const row = {
      id: user.id,
      project_id: user.projectId,
      email: user.email,
      email_normalized: normalizeEmail(user.email),
      password_hash: user.passwordHash,
      role: user.role,
      display_name: user.displayName,
      enabled: user.enabled ? 1 : 0,
      created_at: now.getTime(),
      updated_at: now.getTime(),
      version: 0,
      email_verified_at: emailVerifiedAt?.getTime() ?? null,
    };
    try {
      await writeTransaction(this.#db, async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await trx
          .insertInto('user_identities')
          .values(toRow(user.projectId, identity, now))
          .execute();
        await insertEvents(trx, events);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Which key: a concurrent first sign-in of the same identity, or another account's email.
      const holder = await this.findUserId(user.projectId, identity.provider, identity.subject);
      throw holder === undefined ? emailTaken() : identityInUse();
    }
    return toUser(row);
  }

  async convertUser(conversion: {
    projectId: string;
    userId: string;
    change: AnonymousConversion;
    identity: LinkedIdentity;
    now: Date;
    events: NewEvent[];
  }): Promise<User | undefined> {
    const { projectId, userId, change, identity, now, events } = conversion;
    try {
      return await writeTransaction(this.#db, async (trx) => {
        const row = await convertAnonymousUser(trx, { projectId, id: userId }, change, now);
        if (!row) return undefined;
        await trx
          .insertInto('user_identities')
          .values(toRow(projectId, identity, now))
          .execute();
        await insertEvents(trx, events);
        return toUser(row);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const holder = await this.findUserId(projectId, identity.provider, identity.subject);
      throw holder === undefined ? accountExists() : identityInUse();
    }
  }

  async unlink(projectId: string, userId: string, provider: string, event?: NewEvent): Promise<boolean> {
    return writeTransaction(this.#db, async (trx) => {
      const result = await trx
        .deleteFrom('user_identities')
        .where('project_id', '=', projectId)
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) return false;
      await insertEvents(trx, [event]);
      return true;
    });
  }
}

function toRow(projectId: string, identity: LinkedIdentity, now: Date) {
  return {
    project_id: projectId,
    provider: identity.provider,
    subject: identity.subject,
    user_id: identity.userId,
    display_name: identity.displayName.slice(0, 200),
    email: identity.email,
    created_at: now.getTime(),
  };
}
