/** Everything that has to be closed on shutdown. */
export interface Closable {
  close(): Promise<void>;
}
