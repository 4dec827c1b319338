import { randomBytes } from 'node:crypto';
import { authRequired, invalidLogin } from '../../errors/errors.ts';
import type { Clock } from '../clock.ts';
import type { LoginThrottle } from '../identity/login-throttle.ts';
import { getDecoyHash, verifyPassword } from '../identity/passwords.ts';
import { hashOperatorToken, toOperatorEmail } from './operator-accounts.ts';
import type { Operator, OperatorRepository } from './operator-repository.ts';

/** How long a console sign-in lasts (the cookie's Max-Age too). */
export const consoleSessionSeconds = 12 * 60 * 60;

/** Failed sign-ins are counted in the login buckets under this pseudo project. */
const consoleThrottleScope = '(console)';

export type ConsoleSession = { operator: Operator; token: string; expiresAt: Date };

/**
 * Console sign-in: an operator (operator-accounts.ts; apart from every project's users) signs in
 * with a password for a session whose token lives only in an HttpOnly cookie; the database
 * keeps its SHA-256, so a copy of the database opens no session.
 */
export class OperatorService {
  readonly #operators: OperatorRepository;
  readonly #throttle: LoginThrottle;
  readonly #clock: Clock;

  constructor(options: { operators: OperatorRepository; throttle: LoginThrottle; clock: Clock }) {
    this.#operators = options.operators;
    this.#throttle = options.throttle;
    this.#clock = options.clock;
  }

  /** A wrong email or password is INVALID_LOGIN alike (same time too); failures are throttled. */
  async signIn(input: { email: string; password: string; clientAddress: string }): Promise<ConsoleSession> {
    const email = toOperatorEmail(input.email);
    const attempt = { projectId: consoleThrottleScope, email, clientAddress: input.clientAddress };
    return this.#throttle.guard(attempt, async () => {
      const found = await this.#operators.findByEmail(email);
      const matches = await verifyPassword(input.password, found?.passwordHash ?? (await getDecoyHash()));
      if (!found || !matches) throw invalidLogin();
      return this.#startSession({ id: found.id, email: found.email, createdAt: found.createdAt });
    });
  }

  /**
   * A one-time link's token (`coffer console`) for a session: good once, for ten minutes. A
   * wrong token is INVALID_LOGIN and counts in the same throttle as passwords.
   */
  async signInWithLink(input: { token: string; clientAddress: string }): Promise<ConsoleSession> {
    const attempt = {
      projectId: consoleThrottleScope,
      email: '(sign-in link)',
      clientAddress: input.clientAddress,
    };
    return this.#throttle.guard(attempt, async () => {
      const operator = await this.#operators.consumeSignInLink(
        hashOperatorToken(input.token),
        this.#clock.now(),
      );
      if (!operator)
        throw invalidLogin('The sign-in link is wrong, used or expired: run `coffer console` for another');
      return this.#startSession(operator);
    });
  }

  async #startSession(operator: Operator): Promise<ConsoleSession> {
    const token = randomBytes(32).toString('base64url');
    const now = this.#clock.now();
    const expiresAt = new Date(now.getTime() + consoleSessionSeconds * 1000);
    await this.#operators.createSession({
      tokenHash: hashOperatorToken(token),
      operatorId: operator.id,
      createdAt: now,
      expiresAt,
    });
    return { operator, token, expiresAt };
  }

  /** The operator of a live session; AUTH_REQUIRED otherwise (absent, unknown, expired, deleted). */
  async authenticate(token: string | undefined): Promise<Operator> {
    const operator = token
      ? await this.#operators.findSession(hashOperatorToken(token), this.#clock.now())
      : undefined;
    if (!operator) throw authRequired('Sign in to the console');
    return operator;
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.#operators.deleteSession(hashOperatorToken(token));
  }
}
