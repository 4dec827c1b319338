import { after, before } from 'node:test';
import { type CofferProcess, startCofferProcess } from '../support/coffer-process.ts';
import { assertDatabaseIntegrity } from '../support/database-integrity.ts';
import { checkAfterRestart, type RoundOutcome } from './check-after-restart.ts';
import { assertReferencedBlobsStored } from './check-blob-references.ts';
import type { FileJournal } from './crash-round.ts';

/** The `coffer serve` a crash test file kills and restarts, and the user its rounds act as. */
export type CrashTarget = { coffer: CofferProcess; token: string };

/**
 * `rounds` in `npm test`; `longRounds` (ten times as many unless said) under COFFER_TEST_LONG=1
 * (`npm run test:long`). Each round kills at a moment drawn from the run's seed, so runs with
 * other seeds cover other moments; the long run is where many moments are tried at once.
 */
export const toRounds = (rounds: number, longRounds = rounds * 10) =>
  process.env.COFFER_TEST_LONG === '1' ? longRounds : rounds;

/** Starts the server before the file's tests (with `args`) and stops whichever process runs last. */
export function useCrashTarget(args: string[] = []): CrashTarget {
  const target = {} as CrashTarget;
  before(async () => {
    target.coffer = await startCofferProcess({ args });
    target.token = (await target.coffer.client.signup()).token;
  });
  after(() => target.coffer?.stop());
  return target;
}

/**
 * Restarts the killed server on its data and holds it to `check` (what the round's clients
 * saw), the database's integrity checks and the blob store (no record without its bytes); a
 * failure names the round and its seed.
 */
export async function restartAndHold<T>(
  target: CrashTarget,
  context: string,
  check: (coffer: CofferProcess) => Promise<T>,
): Promise<T> {
  target.coffer = await target.coffer.restart();
  try {
    const outcome = await check(target.coffer);
    await assertDatabaseIntegrity(target.coffer);
    await assertReferencedBlobsStored(target.coffer);
    return outcome;
  } catch (error) {
    (error as Error).message = `${context}: ${(error as Error).message}`;
    throw error;
  }
}

/** restartAndHold for upload rounds: the restarted server keeps what their journals say. */
export function restartAndCheck(
  target: CrashTarget,
  round: { prefix: string; journals: FileJournal[]; context: string },
): Promise<RoundOutcome> {
  const { prefix, journals } = round;
  return restartAndHold(target, round.context, (coffer) =>
    checkAfterRestart({ client: coffer.client, token: target.token, prefix, journals }),
  );
}
