import { CofferError, toCofferError } from './errors.ts';

/**
 * CofferClient.download(): fetches the content through a fresh signed link of the file
 * (`getLink`); a failure is a CofferError (NETWORK_ERROR when the server could not be reached).
 */
export async function downloadContent(
  fetch: typeof globalThis.fetch,
  getLink: () => Promise<{ url: string }>,
  options: { signal?: AbortSignal },
): Promise<Response> {
  const { url } = await getLink();
  const response = await fetch(url, { signal: options.signal }).catch((error: unknown) => {
    throw new CofferError(0, 'NETWORK_ERROR', 'The download could not reach the server', { cause: error });
  });
  if (!response.ok) throw await toCofferError(response);
  return response;
}
