import type { Clock } from '../../src/domain/clock.ts';

/** A clock the test moves by hand, to whole seconds (links and tokens count in Unix seconds). */
export class ManualClock implements Clock {
  #seconds: number;

  constructor(startSeconds = Math.floor(Date.now() / 1000)) {
    this.#seconds = startSeconds;
  }

  now(): Date {
    return new Date(this.#seconds * 1000);
  }

  get seconds(): number {
    return this.#seconds;
  }

  set(seconds: number): void {
    this.#seconds = seconds;
  }

  advance(seconds: number): void {
    this.#seconds += seconds;
  }
}
