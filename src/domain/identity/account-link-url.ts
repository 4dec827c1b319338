import { validationFailed } from '../../errors/errors.ts';

/** What `{purpose}` in a project's accountLinkUrl stands for: the page a mail's link opens. */
export type AccountLinkPurpose =
  | 'reset-password'
  | 'verify-email'
  | 'magic-link'
  | 'change-email'
  | 'revert-email';

const maxLength = 2048;

/**
 * An app's page for mail links: an absolute http(s) URL without credentials or fragment (Coffer
 * appends `#token=…`, so the token never reaches a server log or a Referer). Whether its origin
 * is one the project allows is checked where it is set and again where a link is built (the
 * origins may change after).
 */
export function isAccountLinkUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > maxLength) return false;
  const url = URL.parse(value.replaceAll('{purpose}', 'purpose'));
  return (
    url !== null &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    !value.includes('#')
  );
}

export function parseAccountLinkUrl(text: string, name: string): string | null {
  if (text.toLowerCase() === 'none') return null;
  if (!isAccountLinkUrl(text))
    throw validationFailed(
      `${name} must be an http(s) URL without #fragment or credentials, {purpose} allowed (e.g. https://app.example/account/{purpose}), or none`,
    );
  return text;
}

/** The origin of an accountLinkUrl (`https://app.example`). */
export function accountLinkOrigin(template: string): string {
  return new URL(template.replaceAll('{purpose}', 'purpose')).origin;
}

/** The link a mail carries: the page, then the token in the fragment. */
export function buildAccountLink(template: string, purpose: AccountLinkPurpose, token: string): string {
  return `${template.replaceAll('{purpose}', purpose)}#token=${token}`;
}
