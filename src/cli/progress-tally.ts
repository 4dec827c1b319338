import { formatBytes } from '../domain/format-bytes.ts';

/** What a phase counts: items (files, rows; bytes beside them) or bytes themselves (upload, download). */
export type ProgressUnit = 'items' | 'bytes';

/** What a phase has done so far, how fast, and how long the rest should take. */
export class PhaseTally {
  readonly name: string;
  readonly total: number | undefined;
  readonly unit: ProgressUnit;
  done = 0;
  /** Bytes moved by this run (a resumed upload's earlier bytes count in `done`, not here). */
  bytes = 0;
  /** `done` when the phase started counting this run's work (what a resumed upload had already). */
  #doneBefore: number | undefined;
  readonly #startedAtMs = performance.now();

  constructor(name: string, total: number | undefined, unit: ProgressUnit) {
    this.name = name;
    this.total = total;
    this.unit = unit;
  }

  /** `count` more done, `bytes` more moved; work already done before this run (bytes 0) is not a rate. */
  add(count: number, bytes: number): void {
    if (bytes === 0 && this.bytes === 0 && this.unit === 'bytes') this.#doneBefore = this.done + count;
    this.done += count;
    this.bytes += bytes;
  }

  get #seconds(): number {
    return (performance.now() - this.#startedAtMs) / 1000;
  }

  get bytesPerSecond(): number {
    const seconds = this.#seconds;
    return seconds > 0 ? Math.round(this.bytes / seconds) : 0;
  }

  /** Seconds until `total` at this run's pace; undefined while there is no total or no pace yet. */
  get secondsLeft(): number | undefined {
    if (this.total === undefined) return undefined;
    const doneThisRun = this.done - (this.#doneBefore ?? 0);
    const seconds = this.#seconds;
    if (doneThisRun <= 0 || seconds <= 0) return undefined;
    return Math.max(0, Math.ceil(((this.total - this.done) * seconds) / doneThisRun));
  }
}

/** `12s`, `3m05s`, `1h02m`; `--` when not known yet. */
export function formatSecondsLeft(seconds: number | undefined): string {
  if (seconds === undefined) return '--';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * The line a terminal shows after the phase's name and bar: human sizes (KiB, MiB, GiB), the
 * rate, and the time left where the total is known. `upload  12.0 MiB/40.0 MiB | 5.1 MiB/s | 6s left`;
 * `blobs  12/40 | 123.4 MiB | 5.1 MiB/s | 3m05s left`.
 */
export function toProgressText(tally: PhaseTally): string {
  const counted =
    tally.unit === 'bytes'
      ? [formatBytes(tally.done), tally.total === undefined ? '' : `/${formatBytes(tally.total)}`].join('')
      : `${tally.done}${tally.total === undefined ? '' : `/${tally.total}`} | ${formatBytes(tally.bytes)}`;
  const left = tally.total === undefined ? [] : [`${formatSecondsLeft(tally.secondsLeft)} left`];
  return [counted, `${formatBytes(tally.bytesPerSecond)}/s`, ...left].join(' | ');
}
