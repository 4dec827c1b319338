/**
 * What the primary and its workers tell each other over the cluster's IPC channel, in order:
 * the worker says its app is built (`booted`: Node drops messages that arrive before a
 * listener, so the worker asks); the primary says where to listen privately and where
 * clients reach the service (`listen`); the worker says it serves (`ready`); then each
 * accepted connection travels with a `connection` message.
 */
export type BootedMessage = { type: 'coffer:booted' };
export type ListenMessage = {
  type: 'coffer:listen';
  socketPath: string;
  publicUrl: string;
  /** Whether this worker runs the background collection of stray blobs (one per node does). */
  collectBlobs: boolean;
  /** Whether the worker has siblings to tell its writes to (write-relay.ts). */
  shareWrites: boolean;
};
export type ReadyMessage = { type: 'coffer:ready' };
export type ConnectionMessage = { type: 'coffer:connection' };

type Message = BootedMessage | ListenMessage | ReadyMessage | ConnectionMessage;

/** Whether an IPC message is one of ours, of the given type. */
export function isMessage<T extends Message['type']>(
  message: unknown,
  type: T,
): message is Extract<Message, { type: T }> {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
