import cliProgress from 'cli-progress';
import { formatBytes } from '../domain/format-bytes.ts';

/**
 * Progress of a long command on stderr (stdout keeps the command's one result):
 * - a terminal gets a bar (cli-progress), redrawn at most 10 times a second;
 * - `--json` gets one JSON event per line, at most 4 a second and a last one per phase:
 *   `{"event":"progress","command":"export","phase":"blobs","done":12,"total":40,"bytes":123,"bytesPerSecond":4567}`
 *   (`total` only where it is known);
 * - anything else (a script, a pipe) gets nothing.
 */
export type ProgressReporter = {
  /** Starts a phase (ending the one before); `total` when the count is known in advance. */
  phase(name: string, total?: number): void;
  /** `count` more items done, and `bytes` more bytes moved. */
  advance(count: number, bytes?: number): void;
  /** Ends the last phase: the final event, or the bar left complete on its own line. */
  finish(): void;
};

export type ProgressTarget = { json: boolean; stream?: NodeJS.WriteStream };

const jsonIntervalMs = 250;

export function createProgress(command: string, target: ProgressTarget): ProgressReporter {
  const stream = target.stream ?? process.stderr;
  if (target.json) return new JsonProgress(command, stream);
  if (stream.isTTY) return new BarProgress(stream);
  return { phase() {}, advance() {}, finish() {} };
}

/** What a phase has done so far. */
class PhaseTally {
  readonly name: string;
  readonly total: number | undefined;
  done = 0;
  bytes = 0;
  readonly #startedAtMs = performance.now();

  constructor(name: string, total: number | undefined) {
    this.name = name;
    this.total = total;
  }

  get bytesPerSecond(): number {
    const seconds = (performance.now() - this.#startedAtMs) / 1000;
    return seconds > 0 ? Math.round(this.bytes / seconds) : 0;
  }
}

class JsonProgress implements ProgressReporter {
  readonly #command: string;
  readonly #stream: NodeJS.WritableStream;
  #tally: PhaseTally | undefined;
  #lastEventMs = Number.NEGATIVE_INFINITY;

  constructor(command: string, stream: NodeJS.WritableStream) {
    this.#command = command;
    this.#stream = stream;
  }

  phase(name: string, total?: number): void {
    this.finish();
    this.#tally = new PhaseTally(name, total);
    this.#emit();
  }

  advance(count: number, bytes = 0): void {
    if (!this.#tally) return;
    this.#tally.done += count;
    this.#tally.bytes += bytes;
    if (performance.now() - this.#lastEventMs >= jsonIntervalMs) this.#emit();
  }

  finish(): void {
    if (this.#tally) this.#emit();
    this.#tally = undefined;
  }

  #emit(): void {
    const tally = this.#tally!;
    this.#lastEventMs = performance.now();
    const event = {
      event: 'progress',
      command: this.#command,
      phase: tally.name,
      done: tally.done,
      ...(tally.total === undefined ? {} : { total: tally.total }),
      bytes: tally.bytes,
      bytesPerSecond: tally.bytesPerSecond,
    };
    this.#stream.write(`${JSON.stringify(event)}\n`);
  }
}

class BarProgress implements ProgressReporter {
  readonly #stream: NodeJS.WriteStream;
  #bar: cliProgress.SingleBar | undefined;
  #tally: PhaseTally | undefined;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }

  phase(name: string, total?: number): void {
    this.finish();
    this.#tally = new PhaseTally(name, total);
    const counted = total === undefined ? '{value}' : '[{bar}] {value}/{total}';
    this.#bar = new cliProgress.SingleBar(
      {
        stream: this.#stream,
        fps: 10,
        format: `{phase} ${counted} | {bytes} | {rate}`,
        hideCursor: true,
        barsize: 30,
      },
      cliProgress.Presets.shades_classic,
    );
    this.#bar.start(total ?? 0, 0, this.#payload());
  }

  advance(count: number, bytes = 0): void {
    if (!this.#bar || !this.#tally) return;
    this.#tally.done += count;
    this.#tally.bytes += bytes;
    this.#bar.update(this.#tally.done, this.#payload());
  }

  finish(): void {
    if (this.#bar) {
      this.#bar.update(this.#tally!.done, this.#payload());
      this.#bar.stop();
    }
    this.#bar = undefined;
    this.#tally = undefined;
  }

  #payload() {
    const tally = this.#tally!;
    return {
      phase: tally.name,
      bytes: formatBytes(tally.bytes),
      rate: `${formatBytes(tally.bytesPerSecond)}/s`,
    };
  }
}
