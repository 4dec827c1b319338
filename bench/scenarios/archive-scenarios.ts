/**
 * An archive's throughput (issue 40): one ZIP of a folder's files, streamed through the signed
 * archive link, against a plain signed download of one file holding as many bytes. Both move
 * the same content from the same store through the same gateway; the archive adds its headers
 * and the switch from one stored file to the next. Counted in content bytes, so the archive's
 * own header bytes are overhead it must carry, not throughput it gets credit for.
 */
import { randomBytes } from 'node:crypto';
import type { Scenario } from '../scenario.ts';
import { fillBytes, getDownloadLink, mapLimit, splitUrl } from '../seed/workload.ts';
import { loadSide } from './sides.ts';

/** How many files the archive holds: enough that switching between them is part of the cost. */
const archivedFiles = 16;

export const archiveDownload: Scenario = {
  id: 'archive-download',
  title: `GET signed archive of ${archivedFiles} files vs a signed download of one file of the same bytes`,
  unit: 'MiB/s',
  metric: 'rate',
  // The issue: an archive's throughput is at least 0.8× a plain download of the same bytes.
  target: 0.8,
  prepare: async (context) => {
    const workload = await context.workload();
    const size = context.options.largeBytes;
    const eachBytes = Math.floor(size / archivedFiles);
    const folder = `bench/archive-${randomBytes(3).toString('hex')}`;
    await mapLimit(
      Array.from({ length: archivedFiles }, (_, i) => i),
      4,
      (i) =>
        workload.api.uploadFile(workload.token, `${folder}/part-${i}.bin`, fillBytes(eachBytes), {
          contentType: 'application/octet-stream',
        }),
    );
    const whole = await workload.api.uploadFile(
      workload.token,
      `${folder}-whole.bin`,
      fillBytes(eachBytes * archivedFiles),
      { contentType: 'application/octet-stream' },
    );
    const answer = await workload.api.call('POST', '/api/v1/archives', {
      token: workload.token,
      body: { folder: { path: folder }, expiresInSeconds: 86_400 },
    });
    if (answer.status !== 201) throw new Error(`POST archives failed: ${answer.status} ${answer.text}`);
    const archive = splitUrl(answer.body.url as string);
    const plain = await getDownloadLink(workload, whole._id);
    const load = {
      connections: 1,
      amount: context.options.largeRequests,
      payloadBytes: eachBytes * archivedFiles,
    };
    return {
      scenario: loadSide('archive', {
        url: archive.origin,
        request: { method: 'GET', path: archive.path },
        ...load,
      }),
      baselines: [
        loadSide('plain download', {
          url: plain.origin,
          request: { method: 'GET', path: plain.path },
          ...load,
        }),
      ],
    };
  },
};
