import { createHash } from 'node:crypto';

/** The callback page's only script: the web SDKs wait for the popup to close. */
const closeScript = 'window.close();';
const closeScriptHash = createHash('sha256').update(closeScript).digest('base64');

/** Nothing but that script runs on these pages, and they load nothing. */
export const oauthPagePolicy = `default-src 'none'; script-src 'sha256-${closeScriptHash}'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** The page a finished sign-in answers in its popup: it closes itself (the app then fetches its token). */
export function renderSignedInPage(): string {
  return page(
    'Signed in',
    '<p>You are signed in. This window closes by itself; if it does not, close it.</p>',
    true,
  );
}

/** The page of a refused or failed sign-in: what went wrong, in words the user can act on. */
export function renderSignInErrorPage(message: string): string {
  return page(
    'Sign-in failed',
    `<p>${escapeHtml(message)}</p><p>Close this window and try again.</p>`,
    false,
  );
}

function page(title: string, body: string, close: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<h1>${title}</h1>
${body}
${close ? `<script>${closeScript}</script>` : ''}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
