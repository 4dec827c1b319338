/** Where the time comes from; tests pass a fixed one. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export function toUnixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
