import {
  type AccountLinkPurpose,
  accountLinkOrigin,
  buildAccountLink,
} from '../identity/account-link-url.ts';
import type { Project } from '../identity/project-repository.ts';

/** Where Coffer serves its own pages for mail links (http/account-pages/). */
export const accountPagesPrefix = '/account/';

/**
 * The link an account mail carries: the project's page (accountLinkUrl) while its origin is one
 * the project allows, else Coffer's own page; the token always in the fragment, which browsers
 * never send to a server, so it reaches no access log and no Referer.
 */
export function toAccountLink(
  project: Project,
  purpose: AccountLinkPurpose,
  token: string,
  baseUrl: string,
): string {
  const template = project.settings.accountLinkUrl;
  if (template !== null && project.allowedOrigins.includes(accountLinkOrigin(template)))
    return buildAccountLink(template, purpose, token);
  return `${baseUrl}${accountPagesPrefix}${purpose}#token=${token}`;
}
