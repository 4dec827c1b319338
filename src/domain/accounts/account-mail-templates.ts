import type { MailMessage } from '../mail/mail.ts';
import type { MailPurpose, MailTemplate, MailTemplateTable } from '../mail/mail-template-settings.ts';

/** What a template may say: `{{link}}`, `{{project}}`, `{{email}}`, `{{minutes}}`. */
export type AccountMailValues = { link: string; project: string; email: string; minutes: number };

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
  const fill = (text: string, asText: (value: string) => string) =>
    text.replace(
      /\{\{\s*(link|project|email|minutes)\s*\}\}/g,
      (_placeholder, name: keyof AccountMailValues) => asText(String(values[name])),
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
