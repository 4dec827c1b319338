import type { FastifyInstance } from 'fastify';
import { validationFailed } from '../../errors/errors.ts';

/**
 * Refuses any request whose body, query or path holds the NUL character (U+0000) in a string:
 * PostgreSQL cannot store it in text (it failed such a request with a 500), and no email,
 * name, path or filter has a use for it. Runs after parsing, before schema validation. A
 * body's `filePath` is left to its own rule, which refuses every control character with the
 * more telling INVALID_FILE_PATH.
 */
export function installNulTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (holdsNul(withoutFilePath(request.body)) || holdsNul(request.query) || holdsNul(request.params)) {
      return done(validationFailed('text may not contain the NUL character (U+0000)'));
    }
    done();
  });
}

function withoutFilePath(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('filePath' in body)) return body;
  const { filePath, ...rest } = body as { filePath: unknown };
  // Only a string path has a rule of its own; anything else is the schema's to refuse.
  return typeof filePath === 'string' ? rest : body;
}

/** Walks the value without recursion: a JSON body may nest deeper than the call stack. */
function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
