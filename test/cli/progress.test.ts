/**
 * Issue 43 item 5: progress at a terminal shows human sizes, the rate and the time left; --json
 * events carry `bytesPerSecond` and, where a total is known, `secondsLeft`. Our own formatting:
 * a stream stub that says it is a terminal stands for one.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProgress } from '../../src/cli/progress.ts';
import { formatSecondsLeft } from '../../src/cli/progress-tally.ts';

const MiB = 1024 * 1024;

/** A writable that says it is an 120-column terminal, keeping what was written. */
function fakeTerminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let written = '';
  stream.on('data', (chunk) => (written += chunk));
  return { stream: stream as unknown as NodeJS.WriteStream, written: () => written };
}

/** What a terminal would show last: the text after the last carriage return or cursor move, escapes removed. */
const esc = String.fromCharCode(27);
const terminalControl = new RegExp(`${esc}\\[[0-9;?]*[A-Za-z]|${esc}[78]`, 'g');
const lastFrame = (written: string) =>
  written
    .replaceAll(terminalControl, '\r')
    .split(/[\r\n]/)
    .filter((line) => line.trim() !== '')
    .at(-1) ?? '';

/** A --json reporter on a stream stub, and the events it wrote so far. */
function jsonProgress(command: string) {
  const stream = new PassThrough();
  let written = '';
  stream.on('data', (chunk) => (written += chunk));
  const progress = createProgress(command, { json: true, stream: stream as unknown as NodeJS.WriteStream });
  const events = () =>
    written
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  return { progress, events };
}

describe('coffer progress', () => {
  it('a terminal sees sizes in MiB, the rate and the time left, not byte counts', async () => {
    const terminal = fakeTerminal();
    const progress = createProgress('upload', { json: false, stream: terminal.stream });
    progress.phase('upload', 40 * MiB, 'bytes');
    await sleep(20);
    progress.advance(12 * MiB, 12 * MiB);
    progress.finish();
    const frame = lastFrame(terminal.written());
    assert.match(
      frame,
      /^upload \[.*\] 12\.0 MiB\/40\.0 MiB \| [\d.]+ (KiB|MiB|GiB)\/s \| (\d+s|\d+m\d\ds) left$/,
      frame,
    );
    assert.doesNotMatch(terminal.written(), new RegExp(String(12 * MiB)));
  });

  it('a count of items shows the count, the bytes beside it, the rate and the time left', async () => {
    const terminal = fakeTerminal();
    const progress = createProgress('export', { json: false, stream: terminal.stream });
    progress.phase('blobs', 40);
    await sleep(20);
    progress.advance(10, 3 * MiB);
    progress.finish();
    assert.match(
      lastFrame(terminal.written()),
      /^blobs \[.*\] 10\/40 \| 3\.0 MiB \| [\d.]+ \w+\/s \| \S+ left$/,
    );
  });

  it('--json events carry bytesPerSecond, and secondsLeft where the total is known', async () => {
    const { progress, events: written } = jsonProgress('download');
    progress.phase('download', 8 * MiB, 'bytes');
    await sleep(20);
    progress.advance(2 * MiB, 2 * MiB);
    progress.phase('unknown size', undefined, 'bytes');
    progress.advance(MiB, MiB);
    progress.finish();
    const [start, known, , unknown] = written();
    assert.equal(start.secondsLeft, undefined, 'nothing done yet: no pace to tell');
    assert.equal(known.done, 2 * MiB);
    assert.ok(known.bytesPerSecond > 0 && Number.isInteger(known.secondsLeft), JSON.stringify(known));
    assert.ok(known.secondsLeft >= 0);
    assert.equal(unknown.total, undefined);
    assert.ok(!('secondsLeft' in unknown), JSON.stringify(unknown));
  });

  it('a resumed upload counts the pace of this run only', async () => {
    const { progress, events } = jsonProgress('upload');
    progress.phase('upload', 100 * MiB, 'bytes');
    progress.advance(99 * MiB, 0); // done before this run
    progress.finish();
    const last = events().at(-1);
    assert.equal(last.done, 99 * MiB);
    assert.ok(!('secondsLeft' in last), 'bytes sent before this run are no pace');
  });

  it('time left reads as seconds, minutes or hours', () => {
    assert.deepEqual([undefined, 0, 12, 185, 3720].map(formatSecondsLeft), [
      '--',
      '0s',
      '12s',
      '3m05s',
      '1h02m',
    ]);
  });
});
