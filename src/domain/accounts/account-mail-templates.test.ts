import assert from 'node:assert/strict';
import { it } from 'node:test';
import { renderAccountMail } from './account-mail-templates.ts';

const values = {
  to: 'ann@example.com',
  link: 'https://files.example/account/reset-password#token=abc',
  project: 'Shop <b>"x"</b>\r\nBcc: evil@example.com',
  email: 'ann@example.com',
  minutes: 30,
};

it('fills Coffer’s wording: the link in text and HTML, the lifetime in minutes', () => {
  const mail = renderAccountMail('passwordReset', {}, { ...values, project: 'Shop' });
  assert.equal(mail.to, 'ann@example.com');
  assert.equal(mail.subject, 'Reset your Shop password');
  assert.match(mail.text, /https:\/\/files\.example\/account\/reset-password#token=abc/);
  assert.match(mail.text, /within 30 minutes/);
  assert.match(mail.html ?? '', /href="https:\/\/files\.example\/account\/reset-password#token=abc"/);
});

it('takes a project’s parts and keeps Coffer’s for the others; values are text, never markup or headers', () => {
  const mail = renderAccountMail(
    'magicLink',
    { magicLink: { subject: 'Hello from {{ project }}', html: '<p>{{project}}</p>' } },
    values,
  );
  assert.equal(mail.subject, 'Hello from Shop <b>"x"</b> Bcc: evil@example.com');
  assert.equal(mail.html, '<p>Shop &lt;b&gt;&quot;x&quot;&lt;/b&gt;\r\nBcc: evil@example.com</p>');
  assert.match(mail.text, /To sign in to Shop/);
});
