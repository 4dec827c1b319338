import cliProgress from 'cli-progress';
import { PhaseTally, type ProgressUnit, toProgressText } from './progress-tally.ts';

/**
 * Progress of a long command on stderr (stdout keeps the command's one result):
 * - a terminal gets a bar (cli-progress), redrawn at most 10 times a second, with human sizes
 *   (KiB, MiB, GiB), the rate and the time left (progress-tally.ts);
 * - `--json` gets one JSON event per line, at most 4 a second and a last one per phase:
 *   `{"event":"progress","command":"export","phase":"blobs","done":12,"total":40,"bytes":123,"bytesPerSecond":4567,"secondsLeft":3}`
 *   (`total` and `secondsLeft` only where they are known);
 * - anything else (a script, a pipe) gets nothing.
 */
export type ProgressReporter = {
  /**
   * Starts a phase (ending the one before); `total` when the count is known in advance; `unit`
   * 'bytes' when the count is of bytes (an upload, a download), shown as sizes.
   */
  phase(name: string, total?: number, unit?: ProgressUnit): void;
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

class JsonProgress implements ProgressReporter {
  readonly #command: string;
  readonly #stream: NodeJS.WritableStream;
  #tally: PhaseTally | undefined;
  #lastEventMs = Number.NEGATIVE_INFINITY;

  constructor(command: string, stream: NodeJS.WritableStream) {
    this.#command = command;
    this.#stream = stream;
  }

  phase(name: string, total?: number, unit: ProgressUnit = 'items'): void {
    this.finish();
    this.#tally = new PhaseTally(name, total, unit);
    this.#emit();
  }

  advance(count: number, bytes = 0): void {
    if (!this.#tally) return;
    this.#tally.add(count, bytes);
    if (performance.now() - this.#lastEventMs >= jsonIntervalMs) this.#emit();
  }

  finish(): void {
    if (this.#tally) this.#emit();
    this.#tally = undefined;
  }

  #emit(): void {
    const tally = this.#tally!;
    const secondsLeft = tally.secondsLeft;
    this.#lastEventMs = performance.now();
    const event = {
      event: 'progress',
      command: this.#command,
      phase: tally.name,
      done: tally.done,
      ...(tally.total === undefined ? {} : { total: tally.total }),
      bytes: tally.bytes,
      bytesPerSecond: tally.bytesPerSecond,
      ...(secondsLeft === undefined ? {} : { secondsLeft }),
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

  phase(name: string, total?: number, unit: ProgressUnit = 'items'): void {
    this.finish();
    this.#tally = new PhaseTally(name, total, unit);
    this.#bar = new cliProgress.SingleBar(
      {
        stream: this.#stream,
        fps: 10,
        format: total === undefined ? '{phase} {text}' : '{phase} [{bar}] {text}',
        hideCursor: true,
        barsize: 30,
      },
      cliProgress.Presets.shades_classic,
    );
    this.#bar.start(total ?? 0, 0, this.#payload());
  }

  advance(count: number, bytes = 0): void {
    if (!this.#bar || !this.#tally) return;
    this.#tally.add(count, bytes);
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
    return { phase: tally.name, text: toProgressText(tally) };
  }
}
