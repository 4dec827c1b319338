import type { MailMessage } from '../mail/mail.ts';
import type { MailPurpose, MailTemplate, MailTemplateTable } from '../mail/mail-template-settings.ts';

/**
 * What a template may say: `{{link}}`, `{{project}}`, `{{email}}` (the recipient's address),
 * `{{minutes}}`, and `{{newEmail}}` (an email change's new address; elsewhere the recipient's).
 */
export type AccountMailValues = {
  link: string;
  project: string;
  email: string;
  minutes: number;
  newEmail?: string;
};

/** Coffer's own wording; a project replaces any part (mailTemplates.<purpose>.<part>). */
const defaults: Record<MailPurpose, Required<MailTemplate>> = {
  passwordReset: {
    subject: 'Reset your {{project}} password',
    text: [
      'Someone asked to reset the password of {{email}} for {{project}}.',
      '',
      'To choose a new password, open this link within {{minutes}} minutes:',
      '{{link}}',
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
    html: [
      '<p>Someone asked to reset the password of {{email}} for {{project}}.</p>',
      '<p><a href="{{link}}">Choose a new password</a> (the link works for {{minutes}} minutes).</p>',
      '<p>If it was not you, ignore this mail: your password stays as it is.</p>',
    ].join('\n'),
  },
  emailVerification: {
    subject: 'Confirm your email address for {{project}}',
    text: [
      'To confirm that {{email}} is your address for {{project}}, open this link within {{minutes}} minutes:',
      '{{link}}',
      '',
      'If you did not sign up, ignore this mail.',
    ].join('\n'),
    html: [
      '<p><a href="{{link}}">Confirm that {{email}} is your address for {{project}}</a> (the link works for {{minutes}} minutes).</p>',
      '<p>If you did not sign up, ignore this mail.</p>',
    ].join('\n'),
  },
  magicLink: {
    subject: 'Your {{project}} sign-in link',
    text: [
      'To sign in to {{project}} as {{email}}, open this link within {{minutes}} minutes:',
      '{{link}}',
      '',
      'If you did not ask to sign in, ignore this mail.',
    ].join('\n'),
    html: [
      '<p><a href="{{link}}">Sign in to {{project}} as {{email}}</a> (the link works for {{minutes}} minutes).</p>',
      '<p>If you did not ask to sign in, ignore this mail.</p>',
    ].join('\n'),
  },
  emailChange: {
    subject: 'Confirm your new email address for {{project}}',
    text: [
      'Someone signed in to {{project}} asked to use {{email}} as their address.',
      '',
      'To confirm the change, open this link within {{minutes}} minutes:',
      '{{link}}',
      '',
      'If it was not you, ignore this mail: nothing changes.',
    ].join('\n'),
    html: [
      '<p>Someone signed in to {{project}} asked to use {{email}} as their address.</p>',
      '<p><a href="{{link}}">Confirm the change</a> (the link works for {{minutes}} minutes).</p>',
      '<p>If it was not you, ignore this mail: nothing changes.</p>',
    ].join('\n'),
  },
  emailChanged: {
    subject: 'The email address of your {{project}} account changed',
    text: [
      'The address of your {{project}} account changed from {{email}} to {{newEmail}}, and its other sessions were signed out.',
      '',
      'If it was not you, open this link within 7 days to undo the change and sign everyone out:',
      '{{link}}',
      '',
      'Then choose a new password.',
    ].join('\n'),
    html: [
      '<p>The address of your {{project}} account changed from {{email}} to {{newEmail}}, and its other sessions were signed out.</p>',
      '<p>If it was not you, <a href="{{link}}">undo the change and sign everyone out</a> (the link works for 7 days). Then choose a new password.</p>',
    ].join('\n'),
  },
};

/**
 * The mail of a purpose in the project's wording where it has one. Values are inserted as
 * text: escaped in the HTML part, and stripped of line breaks in the subject.
 */
export function renderAccountMail(
  purpose: MailPurpose,
  overrides: MailTemplateTable,
  values: AccountMailValues & { to: string },
): MailMessage {
  const template = { ...defaults[purpose], ...overrides[purpose] };
  const filled: Required<AccountMailValues> = { ...values, newEmail: values.newEmail ?? values.email };
  const fill = (text: string, asText: (value: string) => string) =>
    text.replace(
      /\{\{\s*(link|project|email|minutes|newEmail)\s*\}\}/g,
      (_placeholder, name: keyof AccountMailValues) => asText(String(filled[name])),
    );
  return {
    to: values.to,
    subject: fill(template.subject, (value) => value.replace(/[\r\n]+/g, ' ')),
    text: fill(template.text, (value) => value),
    html: fill(template.html, escapeHtml),
  };
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
