/** A warning in the server log's JSON shape (pino level 40), for lines written before the logger exists. */
export function logStartWarning(message: string): void {
  console.error(JSON.stringify({ level: 40, time: Date.now(), msg: message }));
}
