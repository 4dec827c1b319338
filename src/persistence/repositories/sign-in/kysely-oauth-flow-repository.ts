import type { Kysely, Selectable } from 'kysely';
import type { ProviderIdentity } from '../../../domain/sign-in/provider-client.ts';
import type { OAuthFlow, OAuthFlowRepository } from '../../../domain/sign-in/sign-in-repositories.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema, OAuthFlowsTable } from '../../database-schema.ts';
import { deleteExpiredRows } from '../delete-expired-rows.ts';

/** OAuthFlowRepository over Kysely: each step one statement, so two racing callbacks or token fetches cannot both win. */
export class KyselyOAuthFlowRepository implements OAuthFlowRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(flow: OAuthFlow, now: Date): Promise<boolean> {
    try {
      await this.#db
        .insertInto('oauth_flows')
        .values({
          id: flow.id,
          project_id: flow.projectId,
          provider: flow.provider,
          client_state: flow.clientState,
          code_verifier: flow.codeVerifier,
          nonce: flow.nonce,
          redirect_to: flow.redirectTo,
          client_address: flow.clientAddress,
          created_at: now.getTime(),
          expires_at: flow.expiresAt.getTime(),
          identity: null,
        })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findOpen(id: string, now: Date): Promise<OAuthFlow | undefined> {
    const row = await this.#db
      .selectFrom('oauth_flows')
      .selectAll()
      .where('id', '=', id)
      .where('identity', 'is', null)
      .where('expires_at', '>', now.getTime())
      .executeTakeFirst();
    return row && toFlow(row);
  }

  async complete(id: string, identity: ProviderIdentity, expiresAt: Date): Promise<boolean> {
    const result = await this.#db
      .updateTable('oauth_flows')
      .set({ identity: JSON.stringify(identity), expires_at: expiresAt.getTime() })
      .where('id', '=', id)
      .where('identity', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async take(
    key: { projectId: string; provider: string; clientState: string; clientAddress: string },
    now: Date,
  ): Promise<OAuthFlow | undefined> {
    const { projectId, provider, clientState, clientAddress } = key;
    // One DELETE … RETURNING: of two racing fetches, one takes the flow and the other finds none.
    const row = await this.#db
      .deleteFrom('oauth_flows')
      .where('project_id', '=', projectId)
      .where('provider', '=', provider)
      .where('client_state', '=', clientState)
      .where('client_address', '=', clientAddress)
      .where('identity', 'is not', null)
      .where('expires_at', '>', now.getTime())
      .returningAll()
      .executeTakeFirst();
    return row && toFlow(row);
  }

  deleteExpired(now: Date): Promise<number> {
    // A few at a time, oldest first: each new flow clears what is left of abandoned ones.
    return deleteExpiredRows(this.#db, { table: 'oauth_flows', key: 'id', deadline: 'expires_at' }, now, 20);
  }
}

function toFlow(row: Selectable<OAuthFlowsTable>): OAuthFlow {
  return {
    id: row.id,
    projectId: row.project_id,
    provider: row.provider,
    clientState: row.client_state,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    redirectTo: row.redirect_to,
    clientAddress: row.client_address,
    expiresAt: new Date(Number(row.expires_at)),
    identity: row.identity === null ? null : (JSON.parse(row.identity) as ProviderIdentity),
  };
}
