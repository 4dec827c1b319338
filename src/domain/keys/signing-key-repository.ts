/** Secret keys for HMAC signing (links, tokens), shared by every node through the database. */
export type SigningKey = { id: string; purpose: 'link' | 'token'; secret: Buffer; createdAt: Date };

export interface SigningKeyRepository {
  /** All keys of a purpose, newest first. */
  list(purpose: SigningKey['purpose']): Promise<SigningKey[]>;
  create(key: SigningKey): Promise<void>;
  /** Deletes these keys (retired ones: `coffer keys rotate`); answers how many there were. */
  delete(ids: readonly string[]): Promise<number>;
}
