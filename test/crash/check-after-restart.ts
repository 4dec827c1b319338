import assert from 'node:assert/strict';
import type { ApiClient } from '../support/api-client.ts';
import { etagsOf } from '../support/byte-streams.ts';
import { type FileJournal, isEtagOf, type PutJournal } from './crash-round.ts';

/** What a round left behind, for the test's diagnostics. */
export type RoundOutcome = { files: number; verified: number; pinnedNow: number; empty: number };

type Listed = {
  _id: string;
  filePath: string;
  verified: boolean;
  etag?: string;
  __v: number;
  meta: { ContentLength?: string };
  acl: { scope: string; identifier: string }[];
  creator: string;
};

/**
 * Holds the restarted server to what the clients of a killed round saw:
 * - every request answered 200 was kept (records, uploads, verifications, shares);
 * - every verified record downloads exactly its size and bytes that carry its ETag, and those
 *   are the bytes of one whole PUT (never a partial or a foreign body);
 * - an unverified record shows no content, and the upload answered last (or a PUT sent after
 *   it whose answer the crash swallowed) can still be verified, then downloads those bytes;
 * - `__v` counts exactly the changes kept: one per ACL entry added and one for verification.
 */
export async function checkAfterRestart(options: {
  client: ApiClient;
  token: string;
  prefix: string;
  journals: FileJournal[];
}): Promise<RoundOutcome> {
  const { client, token, journals } = options;
  const listed = await client.call('GET', `/api/v1/file?pageSize=100&filePath=${options.prefix}/`, { token });
  assert.equal(listed.status, 200, listed.text);
  const records = new Map((listed.body.docs as Listed[]).map((record) => [record.filePath, record]));
  const outcome: RoundOutcome = { files: records.size, verified: 0, pinnedNow: 0, empty: 0 };
  for (const journal of journals) {
    const record = records.get(journal.filePath);
    if (journal.fileId)
      assert.equal(record?._id, journal.fileId, `${journal.filePath}: an answered upload request was lost`);
    if (!record) continue;
    const where = `${journal.filePath} (${record._id})`;
    checkAcl(record, journal, where);
    if (record.verified) {
      outcome.verified += 1;
      const answered = journal.verifies.find((verify) => verify.answer?.status === 200);
      if (answered)
        assert.equal(record.etag, answered.etag, `${where}: verified with another etag than answered`);
      await assertDownloads(client, token, record._id, wholePut(journal, record.etag!, where), where);
      continue;
    }
    assert.ok(
      !journal.verifies.some((verify) => verify.answer?.status === 200),
      `${where}: lost its verification`,
    );
    assert.equal(record.etag, undefined, `${where}: an unverified record shows an etag`);
    assert.deepEqual(record.meta, {}, `${where}: an unverified record shows content`);
    const hidden = await client.call('GET', `/api/v1/file/${record._id}`, { token });
    assert.equal(hidden.body?.code, 'FILE_NOT_VERIFIED', `${where}: ${hidden.status} ${hidden.text}`);
    const pinned = await verifyPendingUpload(client, token, record, journal, where);
    if (pinned) {
      outcome.pinnedNow += 1;
      await assertDownloads(client, token, record._id, pinned, where);
    } else outcome.empty += 1;
  }
  for (const record of records.values())
    assert.ok(
      journals.some((journal) => journal.filePath === record.filePath),
      `${record.filePath}: a record nobody asked for`,
    );
  return outcome;
}

function checkAcl(record: Listed, journal: FileJournal, where: string): void {
  assert.deepEqual(record.acl[0], { scope: 'user', identifier: record.creator }, `${where}: creator entry`);
  const sent = new Set(journal.shares.map((share) => share.role));
  for (const entry of record.acl.slice(1))
    assert.ok(
      entry.scope === 'role' && sent.has(entry.identifier),
      `${where}: unknown entry ${JSON.stringify(entry)}`,
    );
  const kept = new Set(record.acl.slice(1).map((entry) => entry.identifier));
  for (const share of journal.shares)
    if (share.answer?.status === 200)
      assert.ok(kept.has(share.role), `${where}: lost the answered share ${share.role}`);
  assert.equal(
    record.__v,
    record.acl.length - 1 + (record.verified ? 1 : 0),
    `${where}: __v counts other changes`,
  );
}

/** A PUT answered with an error must have kept nothing. */
const isRefused = (put: PutJournal) => put.answer !== undefined && put.answer.status !== 200;

/** The PUT whose whole body has this etag: a verified record never holds anything else. */
function wholePut(journal: FileJournal, etag: string, where: string): PutJournal {
  const put = journal.puts.find((candidate) => isEtagOf(candidate, etag) && !isRefused(candidate));
  assert.ok(put, `${where}: verified bytes (${etag}) that no PUT sent whole, or one answered with an error`);
  return put;
}

/**
 * Verifies an unverified record the way its client would after the crash: with the etag of
 * the PUT answered last, or, when a later PUT committed but lost its answer, with that one's.
 * The etag of a PUT answered with an error must not verify.
 */
async function verifyPendingUpload(
  client: ApiClient,
  token: string,
  record: Listed,
  journal: FileJournal,
  where: string,
): Promise<PutJournal | undefined> {
  const lastAnswered = journal.puts.findLastIndex((put) => put.answer?.status === 200);
  const candidates = journal.puts
    .filter((put, index) => index === lastAnswered || (index > lastAnswered && !put.answer))
    .reverse();
  // With the tag its answer gave, or, for a PUT whose answer was lost, each tag a store may
  // have given its bytes (S3 tags a body over one part with its multipart ETag).
  const verify = async (put: PutJournal) => {
    for (const etag of new Set([put.answer?.etag, ...put.etags])) {
      if (etag === undefined) continue;
      const verified = await client.call('POST', `/api/v1/file/${record._id}/verify`, {
        token,
        body: { etag },
      });
      if (verified.status === 200) return true;
      assert.ok(
        verified.body?.code === 'ETAG_MISMATCH' || verified.body?.code === 'UPLOAD_MISSING',
        `${where}: verify answered ${verified.status} ${verified.text}`,
      );
    }
    return false;
  };
  for (const refused of journal.puts.filter(isRefused))
    if (!candidates.some((put) => isEtagOf(put, refused.etags[0])))
      assert.equal(
        await verify(refused),
        false,
        `${where}: an upload answered ${refused.answer?.status} kept its bytes`,
      );
  for (const put of candidates) if (await verify(put)) return put;
  assert.equal(lastAnswered, -1, `${where}: the upload answered 200 cannot be verified`);
  return undefined;
}

/** The record is verified with exactly these bytes (etag and size), and its URL serves them. */
export async function assertDownloads(
  client: ApiClient,
  token: string,
  fileId: string,
  put: Pick<PutJournal, 'etags' | 'sizeBytes'>,
  where: string,
): Promise<void> {
  const record = await client.call('GET', `/api/v1/file/${fileId}`, { token });
  assert.equal(record.status, 200, `${where}: ${record.text}`);
  assert.ok(
    isEtagOf(put, record.body.etag),
    `${where}: etag ${record.body.etag}, sent ${put.etags.join(' or ')}`,
  );
  assert.equal(record.body.meta.ContentLength, String(put.sizeBytes), `${where}: ContentLength`);
  const download = await fetch(record.body.url);
  assert.equal(download.status, 200, where);
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.equal(bytes.length, put.sizeBytes, `${where}: downloaded size`);
  // The bytes carry the record's tag, which is one of the PUT's: they are the PUT's bytes.
  assert.ok(etagsOf(bytes).includes(record.body.etag), `${where}: downloaded bytes`);
}
