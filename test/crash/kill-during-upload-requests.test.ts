import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { KillSwitch } from './crash-round.ts';
import { restartAndHold, toRounds, useCrashTarget } from './crash-target.ts';

const rounds = toRounds(3);
const requestsPerRound = 160;
const inFlight = 24;

type Sent = { filePath: string; fileId?: string; status?: number };

// Upload requests that arrive together share one commit on SQLite (group commit,
// persistence/repositories/group-commit.ts): an answer leaves only after its batch committed,
// so a kill -9 at any moment may lose requests that got no answer, never one that did.
describe(`kill -9 while upload requests stream in (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 during upload requests');
  const target = useCrashTarget();

  it(`${rounds} rounds: every upload request answered before the kill keeps its record, whole`, {
    timeout: rounds * 90_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `requests-${round}`;
      const context = `round ${round} (seed ${seed})`;
      const { coffer, token } = target;
      const killSwitch = new KillSwitch(coffer, {
        at: random.int(inFlight, requestsPerRound - 1),
        counts: 'answer',
      });
      const sent: Sent[] = [];
      // `inFlight` clients, each sending its next request when its last is answered: a steady
      // stream with many requests in each batch when the kill lands.
      const client = async () => {
        while (!killSwitch.fired && sent.length < requestsPerRound) {
          const request: Sent = { filePath: `${prefix}/file-${sent.length}.txt` };
          sent.push(request);
          const answer = await coffer.client
            .call('POST', '/api/v1/file', { token, body: { filePath: request.filePath } })
            .catch(() => undefined); // the server died before answering
          if (!answer) return;
          request.status = answer.status;
          request.fileId = answer.body?.fileId;
          killSwitch.tick('answer');
        }
      };
      await Promise.all(Array.from({ length: inFlight }, client));
      await killSwitch.fire();
      const answered = sent.filter((request) => request.status !== undefined);
      assert.deepEqual(
        answered.filter((request) => request.status !== 200),
        [],
        `${context}: every answer before the kill is a 200`,
      );
      const kept = await restartAndHold(target, context, async (restarted) => {
        const recordsByPath = new Map<string, string[]>();
        for (let page = 1, pages = 1; page <= pages; page++) {
          const listed = await restarted.client.call(
            'GET',
            `/api/v1/file?filePath=${prefix}/&pageSize=100&pageNumber=${page}`,
            { token },
          );
          assert.equal(listed.status, 200, listed.text);
          pages = listed.body.pages;
          for (const record of listed.body.docs as { _id: string; filePath: string }[])
            recordsByPath.set(record.filePath, [...(recordsByPath.get(record.filePath) ?? []), record._id]);
        }
        let lost = 0;
        for (const request of sent) {
          const ids = recordsByPath.get(request.filePath) ?? [];
          if (request.fileId) {
            assert.deepEqual(
              ids,
              [request.fileId],
              `${request.filePath} was answered ${request.fileId} before the kill`,
            );
          } else {
            // Committed with its answer lost, or never committed: one record or none, never two.
            assert.ok(ids.length <= 1, `${request.filePath}: ${ids.length} records`);
            lost += 1 - ids.length;
          }
        }
        assert.equal(
          [...recordsByPath.keys()].filter(
            (filePath) => !sent.some((request) => request.filePath === filePath),
          ).length,
          0,
          'no record of a request never sent',
        );
        return { answered: answered.length, lost };
      });
      t.diagnostic(
        `${context}: sent ${sent.length}, answered ${kept.answered}, unanswered and not kept ${kept.lost}`,
      );
    }
  });
});
