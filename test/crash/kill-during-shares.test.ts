import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etagsOf } from '../support/byte-streams.ts';
import { chooseSeed, seededRandom } from '../support/seeded-random.ts';
import { currentStackName } from '../support/test-stack.ts';
import { type Answer, type FileJournal, KillSwitch, toEtag, toUnexpectedAnswers } from './crash-round.ts';
import { restartAndCheck, toRounds, useCrashTarget } from './crash-target.ts';

const rounds = toRounds(4);
const filesPerRound = 8;
const sharesPerFile = 16;
const sharesPerWave = 4;

// On --workers 2: the ACL writes come from two processes (over one SQLite file on the embedded
// stack), and the kill takes the primary and both workers at once.
describe(`kill -9 of serve --workers 2 while shares stream in (${currentStackName()} stack)`, () => {
  const seed = chooseSeed('kill -9 during ACL writes');
  const target = useCrashTarget(['--workers', '2']);

  it(`${rounds} rounds: every ACL entry is kept whole or not at all, and __v counts exactly those kept`, {
    timeout: rounds * 90_000,
  }, async (t) => {
    for (let round = 0; round < rounds; round++) {
      const random = seededRandom(seed + round);
      const prefix = `shares-${round}`;
      const context = `round ${round} (seed ${seed})`;
      const { coffer, token } = target;
      const journals: FileJournal[] = [];
      for (let index = 0; index < filesPerRound; index++) {
        const filePath = `${prefix}/file-${index}.txt`;
        const body = random.bytes(random.int(0, 2048), filePath);
        const record = await coffer.client.uploadFile(token, filePath, body);
        const done: Answer = { status: 200, etag: toEtag(body) };
        journals.push({
          filePath,
          fileId: record._id,
          puts: [
            { sizeBytes: body.length, multipart: false, chunked: false, etags: etagsOf(body), answer: done },
          ],
          verifies: [{ etag: toEtag(body), answer: done }],
          shares: [],
        });
      }
      // A steady stream, not one burst (which a fast server finishes before the kill lands): each
      // file sends its shares in waves of 4 on fresh connections, so about 32 are in flight at
      // any moment; the kill comes with the at-th answer, none is sent after it.
      const killSwitch = new KillSwitch(coffer, {
        at: random.int(1, filesPerRound * sharesPerFile - 1),
        counts: 'share',
      });
      const share = async (journal: FileJournal, role: string) => {
        const sent: FileJournal['shares'][number] = { role };
        journal.shares.push(sent);
        const answer = await coffer.client.call('POST', `/api/v1/file/${journal.fileId}/acl/role/${role}`, {
          token,
          headers: { connection: 'close' },
        });
        sent.answer = { status: answer.status, code: answer.body?.code };
        killSwitch.tick('share');
      };
      await Promise.allSettled(
        journals.map(async (journal) => {
          for (let wave = 0; wave < sharesPerFile && !killSwitch.fired; wave += sharesPerWave) {
            const roles = Array.from({ length: sharesPerWave }, (_, index) => `role-${wave + index}`);
            await Promise.allSettled(roles.map((role) => share(journal, role)));
          }
        }),
      );
      await killSwitch.fire();
      assert.deepEqual(toUnexpectedAnswers(journals), [], context);
      await restartAndCheck(target, { prefix, journals, context });
      const answered = journals.flatMap((journal) => journal.shares).filter((share) => share.answer).length;
      t.diagnostic(
        `${context}: shares answered before the kill ${answered} of ${filesPerRound * sharesPerFile}`,
      );
    }
  });
});
