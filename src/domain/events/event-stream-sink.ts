import type { Principal } from '../access/decide-file-access.ts';
import type { StoredEvent } from './event.ts';

/**
 * Why a stream ended: `slow` (its consumer fell too far behind), `unauthorized` (the token
 * expired, the account was disabled or deleted), `closed` (the consumer left, or the server
 * closes), `failed` (the event log could not be read for it).
 */
export type StreamEndReason = 'slow' | 'unauthorized' | 'closed' | 'failed';

/** Where a subscription's events go: the HTTP response, as Server-Sent Events. */
export interface EventStreamSink {
  /** Writes one event; false once the consumer's buffer is full (wait for drained() before more). */
  send(event: StoredEvent): boolean;
  /** A line every consumer ignores: heartbeats and notices. */
  comment(text: string): boolean;
  /** True once there is room again; false when there is none within `timeoutMs`, or the sink closed. */
  drained(timeoutMs: number): Promise<boolean>;
  /** Ends the stream; the subscription is already gone from the hub. */
  end(reason: StreamEndReason): void;
}

/**
 * The stream's reader as of now, asked again before each batch and at each heartbeat (their
 * role may have changed); undefined ends the stream (token expired, account disabled).
 */
export type Authorize = () => Promise<Principal | undefined>;
