/**
 * A mistake the operator fixes in the invocation: a flag, an environment variable, or a file or
 * directory one of them names. The message is one line that starts with what to fix
 * (`--port 99999: …`); `coffer` prints it and exits with status 2, without a stack trace.
 */
export class ConfigError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}

/** The short reason of a file-system error (`ENOENT: no such file or directory`), without the path. */
export function toFileErrorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const firstLine = message.split('\n')[0]!;
  return code && message.startsWith(`${code}:`) ? firstLine.split(',')[0]! : firstLine;
}
