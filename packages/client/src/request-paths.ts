import type { Call } from './api-shapes.ts';

/** Whom a file is shared with: a user by id or by email (sharing only), or a role. */
export type ShareWith = { userId: string } | { role: string } | { email: string };

export function aclPath(fileId: string, with_: ShareWith): string {
  const [scope, identifier] =
    'userId' in with_
      ? ['user', with_.userId]
      : 'role' in with_
        ? ['role', with_.role]
        : ['email', with_.email];
  return `${filePath(fileId)}/acl/${scope}/${encodeURIComponent(identifier)}`;
}

/** A file's path in the API. */
export const filePath = (fileId: string) => `/api/v1/file/${encodeURIComponent(fileId)}`;

export function toQuery(query: Call['query']): string {
  const entries = Object.entries(query ?? {}).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  return entries.length === 0
    ? ''
    : `?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)]))}`;
}

/** The app credentials every call carries, and the bearer token when one is given. */
export function toHeaders(
  options: { appId: string; appSecret?: string | undefined },
  token?: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'sb-app-id': options.appId };
  if (options.appSecret) headers['sb-app-secret'] = options.appSecret;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return headers;
}
