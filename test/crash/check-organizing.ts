import assert from 'node:assert/strict';
import type { ApiClient } from '../support/api-client.ts';
import { assertDownloads } from './check-after-restart.ts';
import type { KnownFile, OrganizingJournal, OrganizingStep } from './organizing-round.ts';

/** How the steps the kill cut off came out, for the test's diagnostics. */
export type OrganizingOutcome = { files: number; inDoubt: number; appliedInDoubt: number };

type Listed = { _id: string; filePath: string };

/**
 * Holds the restarted server to what the clients of a killed organizing round saw:
 * - an answered copy exists at its path and serves its source's exact bytes; an answered move
 *   left its file at the new path only; an answered bulk delete removed every file it named;
 * - a step without an answer is whole or absent: a copy exists verified with its source's
 *   bytes or not at all, a moved file is at exactly one of its two paths, a file of a cut-off
 *   bulk delete is there whole (record and bytes) or gone (404);
 * - the listing holds nothing else.
 */
export async function checkOrganizingAfterRestart(options: {
  client: ApiClient;
  token: string;
  journal: OrganizingJournal;
}): Promise<OrganizingOutcome> {
  const { client, token, journal } = options;
  const listed = await listAll(client, token, `${journal.prefix}/`);
  const byId = new Map(listed.map((record) => [record._id, record]));
  const inDoubt = journal.steps.filter((step) => !step.answer);
  const outcome: OrganizingOutcome = { files: listed.length, inDoubt: inDoubt.length, appliedInDoubt: 0 };
  const cutOff = (file: KnownFile) => inDoubt.filter((step) => touches(step, file));
  for (const file of journal.files) {
    const where = `${file.filePath} (${file.fileId})`;
    const record = byId.get(file.fileId);
    const steps = cutOff(file);
    const deleting = steps.some((step) => step.kind === 'delete');
    if (file.deleted || (deleting && !record)) {
      assert.equal(record, undefined, `${where}: listed after an answered delete`);
      const got = await client.call('GET', `/api/v1/file/${file.fileId}`, { token });
      assert.equal(got.body?.code, 'FILE_NOT_FOUND', `${where}: deleted, yet ${got.status} ${got.text}`);
      if (deleting) outcome.appliedInDoubt += 1;
      continue;
    }
    assert.ok(record, `${where}: lost (no answered delete names it)`);
    const moves = steps.flatMap((step) => (step.kind === 'move' ? [step.filePath] : []));
    assert.ok(
      [file.filePath, ...moves].includes(record.filePath),
      `${where}: found at ${record.filePath}, expected ${[file.filePath, ...moves].join(' or ')}`,
    );
    if (record.filePath !== file.filePath) outcome.appliedInDoubt += 1;
    await assertDownloads(
      client,
      token,
      file.fileId,
      { etags: [file.etag], sizeBytes: file.sizeBytes },
      where,
    );
  }
  const known = new Set(journal.files.map((file) => file.fileId));
  for (const record of listed) {
    if (known.has(record._id)) continue;
    const copy = inDoubt.find((step) => step.kind === 'copy' && step.filePath === record.filePath);
    assert.ok(copy?.kind === 'copy', `${record.filePath} (${record._id}): a record nobody asked for`);
    const { etag, sizeBytes } = copy.source;
    await assertDownloads(
      client,
      token,
      record._id,
      { etags: [etag], sizeBytes },
      `${record.filePath}: a cut-off copy`,
    );
    outcome.appliedInDoubt += 1;
  }
  return outcome;
}

function touches(step: OrganizingStep, file: KnownFile): boolean {
  if (step.kind === 'move') return step.file === file;
  if (step.kind === 'delete') return step.files.includes(file);
  return false;
}

/** Every record under the prefix, page by page. */
async function listAll(client: ApiClient, token: string, prefix: string): Promise<Listed[]> {
  const records: Listed[] = [];
  for (let page = 1; ; page++) {
    const listed = await client.call(
      'GET',
      `/api/v1/file?pageSize=100&pageNumber=${page}&filePath=${prefix}`,
      {
        token,
      },
    );
    assert.equal(listed.status, 200, listed.text);
    records.push(...(listed.body.docs as Listed[]));
    if (page >= listed.body.pages) return records;
  }
}
