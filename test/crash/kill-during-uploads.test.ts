import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { streamedPut } from '../support/streamed-put.ts';
import { currentStackName } from '../support/test-stack.ts';
import {
  countEvents,
  KillSwitch,
  maxUploadBytes,
  planUploads,
  runUploads,
  toUnexpectedAnswers,
} from './crash-round.ts';
import { restartAndCheck, toRounds, useCrashTarget } from './crash-target.ts';

// Six rounds in `npm test` (the fifth with bodies up to 11 MiB), the twenty of old ten times over in the long run.
const rounds = toRounds(6, 200);
const stack = currentStackName();

describe(`kill -9 during uploads, verifies and shares (${stack} stack)`, () => {
  const seed = chooseSeed('kill -9 during uploads');
  const target = useCrashTarget();

  it(`${rounds} rounds of 32 concurrent uploads (0 B to 11 MiB), SIGKILL at a seeded moment, restart, check`, {
    timeout: rounds * 90_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `round-${round}`;
      // Small bodies keep most rounds quick; every fifth spreads up to 11 MiB (multipart parts included).
      const plans = planUploads(random, {
        prefix,
        maxSizeBytes: round % 5 === 4 ? maxUploadBytes : undefined,
      });
      const context = `round ${round} (seed ${seed})`;
      const { coffer, token } = target;
      const killSwitch = new KillSwitch(coffer, {
        at: random.int(1, countEvents(plans, 'any')),
        counts: 'any',
      });
      const started = Date.now();
      const journals = await runUploads({ coffer, token, plans, random, killSwitch });
      assert.deepEqual(toUnexpectedAnswers(journals), [], context);
      const killed = Date.now();
      const outcome = await restartAndCheck(target, { prefix, journals, context });
      t.diagnostic(
        `${context}: ${JSON.stringify(outcome)}, run ${killed - started} ms, restart and check ${Date.now() - killed} ms`,
      );
    }
  });

  it('temp files a kill left behind are swept after the restart', {
    skip: stack === 'embedded' ? false : 'the S3 store keeps no temp files (its leftovers are for coffer gc)',
  }, async () => {
    const { coffer, token } = target;
    const tmpDir = path.join(coffer.dataDir, 'blobs', '.tmp');
    const { body } = await coffer.client.call('POST', '/api/v1/file', {
      token,
      body: { filePath: 'sweep/big.bin' },
    });
    // Holds still after 1 MiB: kill while the store holds a partial temp file.
    let chunks = 0;
    const never = new Promise<void>(() => {});
    const upload = streamedPut({
      url: body.putFileUrl,
      body: Buffer.alloc(maxUploadBytes, 1),
      onChunk: () => (++chunks > 16 ? never : undefined),
    }).catch(() => undefined);
    let left: string[] = [];
    for (let waited = 0; left.length === 0 && waited < 1200; waited++) {
      left = await readdir(tmpDir).catch(() => []);
      await delay(25);
    }
    assert.notDeepEqual(left, [], 'the upload should have left a temp file to sweep');
    await coffer.kill();
    await upload;
    target.coffer = await coffer.restart();
    let remaining = left;
    for (let waited = 0; remaining.length > 0 && waited < 200; waited++) {
      await delay(100);
      const now = new Set(await readdir(tmpDir));
      remaining = left.filter((name) => now.has(name));
    }
    assert.deepEqual(
      remaining,
      [],
      'temp files of the killed process are still there 20 s after the restart',
    );
  });
});
