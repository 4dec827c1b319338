/** Someone who administers the whole service through the console (not a project's user). */
export type Operator = { id: string; email: string; createdAt: Date };

export type OperatorRepository = {
  /** Throws EMAIL_TAKEN when an operator has this (lower-cased) email. */
  create(operator: Operator & { passwordHash: string }): Promise<void>;
  findByEmail(email: string): Promise<(Operator & { passwordHash: string }) | undefined>;
  list(): Promise<Operator[]>;
  /** Removes the operator and their sessions; false when there was none. */
  deleteByEmail(email: string): Promise<boolean>;
  createSession(session: {
    tokenHash: string;
    operatorId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** The operator of a session that has not expired at `now`. */
  findSession(tokenHash: string, now: Date): Promise<Operator | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Stores the link; links that expired by `now` go meanwhile (the table holds a few rows). */
  createSignInLink(
    link: { tokenHash: string; operatorId: string; expiresAt: Date },
    now: Date,
  ): Promise<void>;
  /** Removes the link and answers its operator, if it had not expired at `now`: a link works once. */
  consumeSignInLink(tokenHash: string, now: Date): Promise<Operator | undefined>;
};
