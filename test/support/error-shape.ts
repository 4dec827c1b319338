import { STATUS_CODES } from 'node:http';
import { errorCodes } from '../../src/errors/error-codes.ts';

// What every refusal must look like, whoever sent what: the one JSON shape with a stable code,
// and nothing of the server's insides (no stack trace, no file system path).

const expectedKeys = ['code', 'error', 'message', 'statusCode'];
const stackTrace = /\n\s+at |\bat .+:\d+:\d+\)?$|Error: /m;
const fileSystemPath =
  /(?:^|[\s"'(:=])\/(?:home|work|tmp|usr|root|var|etc|opt|proc|srv)\/|node_modules|file:\/\/|\.[cm]?[jt]s:\d+|[A-Za-z]:\\\\/;

/** What is wrong with the answer to a request, as the error shape sees it; undefined when nothing. */
export function findErrorShapeProblem(answer: {
  status: number;
  contentType: string | undefined;
  body: string;
  method: string;
  /** Text of the request that a message may quote back (its URL): not the server's insides. */
  quoted?: string;
}): string | undefined {
  const { status, body } = answer;
  if (status >= 500) return `answered ${status}`;
  if (status < 400 || answer.method === 'HEAD') return undefined;
  if (!answer.contentType?.startsWith('application/json')) return `a ${status} typed ${answer.contentType}`;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `a ${status} whose body is not JSON: ${JSON.stringify(body.slice(0, 200))}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return `a ${status} body ${body}`;
  if (Object.keys(parsed).sort().join() !== expectedKeys.join())
    return `a ${status} with the keys of ${body}`;
  if (parsed.statusCode !== status) return `a ${status} that says statusCode ${parsed.statusCode}`;
  if (parsed.error !== STATUS_CODES[status]) return `a ${status} that says error ${parsed.error}`;
  const code = parsed.code;
  if (typeof code !== 'string' || !Object.hasOwn(errorCodes, code)) return `an unknown code in ${body}`;
  if (errorCodes[code as keyof typeof errorCodes] !== status) return `a ${status} with the code ${code}`;
  if (typeof parsed.message !== 'string') return `a message that is no string in ${body}`;
  const message = answer.quoted ? parsed.message.replaceAll(answer.quoted, '') : parsed.message;
  if (stackTrace.test(message)) return `a stack trace in ${body}`;
  if (fileSystemPath.test(message)) return `a file system path in ${body}`;
  return undefined;
}
