/** oidc-provider ships no types; the tests use its constructor, `callback()` and events only. */
declare module 'oidc-provider' {
  type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> };
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
      },
    );
    callback(): (
      request: import('node:http').IncomingMessage,
      response: import('node:http').ServerResponse,
    ) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
