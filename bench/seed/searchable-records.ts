import { randomBytes } from 'node:crypto';
import type { RecordShape } from './seed-file-records.ts';

/**
 * The other creators' records of the scale world, varied as an app's files are, so each search
 * filter of issue 40 has a rare and a common value at a million files (bench/scenarios/
 * search-scenarios.ts asks for them):
 * - names: one in 10,000 is `report-<i>.pdf` (rare); half are `photo-<i>.jpg` (common);
 *   the rest `doc-<i>.bin`;
 * - types: the photos `image/jpeg`, the reports `application/pdf`, one in 1,000 `video/mp4`;
 * - sizes: 1 KiB to ~1 MiB, one in 1,000 at 50 MiB or more;
 * - customData: every record `{"album": "a<i mod 100,000>", "n": i mod 7}`, so each album holds
 *   ten records (a rare equality) and each `n` a seventh of them (a common one).
 */
export function searchablePathOf(count: number): (i: number) => string {
  const batch = randomBytes(4).toString('hex');
  const width = String(count).length;
  return (i) => `seed-${batch}/${kindOf(i)}-${String(i).padStart(width, '0')}.${extensionOf(i)}`;
}

export function searchableShapeOf(i: number): RecordShape {
  const kind = kindOf(i);
  const contentType =
    kind === 'report'
      ? 'application/pdf'
      : kind === 'photo'
        ? 'image/jpeg'
        : i % 1000 === 1
          ? 'video/mp4'
          : 'application/octet-stream';
  const sizeBytes = i % 1000 === 7 ? 50 * 1024 * 1024 + i : 1024 + ((i * 7919) % (1024 * 1024));
  return { contentType, sizeBytes, customData: JSON.stringify({ album: `a${i % 100_000}`, n: i % 7 }) };
}

function kindOf(i: number): 'report' | 'photo' | 'doc' {
  if (i % 10_000 === 3) return 'report';
  return i % 2 === 0 ? 'photo' : 'doc';
}

function extensionOf(i: number): string {
  const kind = kindOf(i);
  return kind === 'report' ? 'pdf' : kind === 'photo' ? 'jpg' : 'bin';
}
