import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { it } from 'node:test';
import { MeteredStream } from './metered-stream.ts';

const chunks = (...sizes: number[]) => sizes.map((size, index) => Buffer.alloc(size, index + 1));

/** What the stream passed on before its source ended (or failed), and how it ended. */
async function run(metered: MeteredStream, source: Readable) {
  const passed: Buffer[] = [];
  let passedBeforeEnd = 0;
  let sourceEnded = false;
  source.once('end', () => {
    sourceEnded = true;
  });
  metered.on('data', (chunk: Buffer) => {
    passed.push(chunk);
    if (!sourceEnded) passedBeforeEnd += chunk.length;
  });
  const ended = new Promise<void>((resolve, reject) => {
    metered.once('end', resolve);
    metered.once('error', reject);
  });
  source.on('error', (error) => metered.destroy(error));
  source.pipe(metered);
  const outcome = await ended.then(
    () => 'ended',
    (error: { code?: string; message: string }) => error.code ?? error.message,
  );
  return { outcome, passedBeforeEnd, bytes: Buffer.concat(passed) };
}

it('with exactBytes, passes every byte but holds the last chunk back until its source has ended', async () => {
  const body = chunks(5, 7, 3);
  const result = await run(new MeteredStream({ maxBytes: 100, exactBytes: 15 }), Readable.from(body));
  assert.equal(result.outcome, 'ended');
  assert.ok(result.bytes.equals(Buffer.concat(body)));
  assert.equal(result.passedBeforeEnd, 12, 'the chunk that completes the length waits for the end');
});

it('with exactBytes, fails a body that is short or runs long, never passing the whole', async () => {
  const short = await run(new MeteredStream({ maxBytes: 100, exactBytes: 15 }), Readable.from(chunks(5, 7)));
  assert.equal(short.outcome, 'CONTENT_MISMATCH');
  const long = await run(
    new MeteredStream({ maxBytes: 100, exactBytes: 12 }),
    Readable.from(chunks(5, 7, 1)),
  );
  assert.equal(long.outcome, 'CONTENT_MISMATCH');
  assert.equal(long.bytes.length, 5, 'the chunk that completed the length was never passed on');
});

it('with exactBytes, passes nothing whole from a source that fails after its last byte', async () => {
  const failing = Readable.from(
    (async function* () {
      yield* chunks(5, 7);
      throw new Error('refused at the end');
    })(),
  );
  const result = await run(new MeteredStream({ maxBytes: 100, exactBytes: 12 }), failing);
  assert.equal(result.outcome, 'refused at the end');
  assert.equal(result.bytes.length, 5);
});

it('without exactBytes, passes each chunk as it comes and fails past maxBytes', async () => {
  const body = chunks(5, 7, 3);
  const passed = await run(new MeteredStream({ maxBytes: 15 }), Readable.from(body));
  assert.equal(passed.outcome, 'ended');
  assert.equal(passed.passedBeforeEnd, 15);
  const over = await run(new MeteredStream({ maxBytes: 14 }), Readable.from(body));
  assert.equal(over.outcome, 'FILE_TOO_LARGE');
});
