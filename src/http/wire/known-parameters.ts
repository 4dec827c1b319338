import { validationFailed } from '../../errors/errors.ts';

/**
 * Refuses a query parameter the route does not take, naming the ones it does: a filter the API
 * does not know (`?prefix=`) would otherwise be ignored and answer everything, silently. Run in
 * preValidation, before the schema's own check, whose message would not say which names there are.
 */
export function assertKnownParameters(
  query: Record<string, unknown>,
  route: { name: string; known: readonly string[]; allows?: (name: string) => boolean; hint?: string },
): void {
  const unknown = Object.keys(query).filter((name) => !route.known.includes(name) && !route.allows?.(name));
  if (unknown.length === 0) return;
  // The names echo the request: a few, each cut short, keep the answer small.
  const names = unknown
    .slice(0, 3)
    .map((name) => JSON.stringify(name.slice(0, 64)))
    .join(', ');
  throw validationFailed(
    `Unknown query parameter ${names}: ${route.name} takes ${route.known.join(', ')}${route.hint ? ` ${route.hint}` : ''}`,
  );
}
