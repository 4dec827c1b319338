import { validationFailed } from '../../errors/errors.ts';

/** The account mails a project may word itself. */
export const mailPurposes = [
  'passwordReset',
  'emailVerification',
  'magicLink',
  'emailChange',
  'emailChanged',
] as const;
export type MailPurpose = (typeof mailPurposes)[number];
const templateParts = ['subject', 'text', 'html'] as const;
export type MailTemplatePart = (typeof templateParts)[number];

export type MailTemplate = Partial<Record<MailTemplatePart, string>>;
/** A project's overrides: purpose → the parts it words itself (the others keep Coffer's). */
export type MailTemplateTable = Readonly<Partial<Record<MailPurpose, MailTemplate>>>;

const settingPrefix = 'mailTemplates.';
/** Bounds a template so that a project's settings stay small (they are read with every request). */
const maxLengths: Record<MailTemplatePart, number> = { subject: 200, text: 10_000, html: 50_000 };

/** Whether a project setting's name names a template part (`mailTemplates.<purpose>.<part>`). */
export function isMailTemplateName(settingName: string): boolean {
  return settingName.startsWith(settingPrefix);
}

/** `mailTemplates.<purpose>.<part>=text` sets a part, `…=` restores Coffer's. */
export function assignMailTemplate(
  table: MailTemplateTable,
  settingName: string,
  text: string,
): MailTemplateTable {
  const [purpose, part, ...rest] = settingName.slice(settingPrefix.length).split('.');
  if (
    rest.length > 0 ||
    !(mailPurposes as readonly string[]).includes(purpose ?? '') ||
    !(templateParts as readonly string[]).includes(part ?? '')
  )
    throw validationFailed(
      `${settingName}: name a part as mailTemplates.<${mailPurposes.join('|')}>.<${templateParts.join('|')}>`,
    );
  const key = part as MailTemplatePart;
  if (text.length > maxLengths[key])
    throw validationFailed(`${settingName} is longer than ${maxLengths[key]} characters`);
  if (key === 'subject' && /[\r\n]/.test(text)) throw validationFailed(`${settingName} must be one line`);
  const current: MailTemplate = { ...table[purpose as MailPurpose] };
  if (text === '') delete current[key];
  else current[key] = text;
  const next: Partial<Record<MailPurpose, MailTemplate>> = { ...table };
  if (Object.keys(current).length === 0) delete next[purpose as MailPurpose];
  else next[purpose as MailPurpose] = current;
  return next;
}

export function isMailTemplateTable(value: unknown): value is MailTemplateTable {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([purpose, template]) =>
      (mailPurposes as readonly string[]).includes(purpose) &&
      template !== null &&
      typeof template === 'object' &&
      Object.entries(template).every(
        ([part, text]) =>
          (templateParts as readonly string[]).includes(part) &&
          typeof text === 'string' &&
          text.length <= maxLengths[part as MailTemplatePart],
      ),
  );
}
