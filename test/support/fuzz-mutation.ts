import type { WireRequest } from './wire-client.ts';

/** One named change to a valid request. */
export type Mutation = { name: string; apply: (request: WireRequest) => WireRequest };

export const mutation = (name: string, apply: (request: WireRequest) => WireRequest): Mutation => ({
  name,
  apply,
});
