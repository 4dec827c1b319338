import type { AccountLinkPurpose } from '../../domain/identity/account-link-url.ts';

type PageText = { title: string; form?: string; done?: string; note?: string };

const pages: Record<AccountLinkPurpose, PageText> = {
  'reset-password': {
    title: 'Choose a new password',
    form: `<label for="newPassword">New password (at least 8 characters)</label>
<input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="8" maxlength="1024" required>
<button type="submit">Set the new password</button>`,
    done: 'Your password is changed, and every session that used the old one is signed out. Sign in again with the new password.',
  },
  'verify-email': {
    title: 'Confirm your email address',
    form: '<button type="submit">Confirm my address</button>',
    done: 'Your address is confirmed. You can close this page.',
  },
  'change-email': {
    title: 'Confirm your new email address',
    form: '<button type="submit">Use this address</button>',
    done: 'Your account now uses this address, and its other sessions are signed out. You can close this page.',
  },
  'revert-email': {
    title: 'Undo the change of your email address',
    form: '<button type="submit">Restore my address and sign everyone out</button>',
    done: 'Your account has its old address again and every session is signed out. Sign in again and choose a new password.',
  },
  'magic-link': {
    title: 'Sign in',
    // A session started here would reach no app: signing in by link needs the app's own page.
    note: 'This app has no sign-in page of its own, so the link cannot sign you in here. Open the app and sign in there.',
  },
};

/** Coffer's page for a mail link (http/account-pages/): static, with no value from the request in it. */
export function renderAccountPage(purpose: AccountLinkPurpose): string {
  const page = pages[purpose];
  const body = page.form ? `<form data-done="${page.done}">\n${page.form}\n</form>` : `<p>${page.note}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title}</title>
<link rel="stylesheet" href="/account/assets/account-page.css">
<script src="/account/assets/account-page.js" defer></script>
</head>
<body>
<h1>${page.title}</h1>
${body}
<p id="status" role="status"></p>
</body>
</html>
`;
}

export function isAccountPagePurpose(value: string): value is AccountLinkPurpose {
  return Object.hasOwn(pages, value);
}
