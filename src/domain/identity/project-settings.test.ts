import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assignProjectSettings, assignSettings } from './assign-project-settings.ts';
import { defaultProjectSettings } from './project-settings.ts';
import { readStoredSettings } from './read-stored-settings.ts';
import { isContentTypeAllowed, parseByteSize } from './setting-parsers.ts';

it('applies name=value assignments, and name= restores a default', () => {
  const settings = assignSettings(defaultProjectSettings, [
    'signup=closed',
    'anonymousSignup=TRUE',
    'maxFileSizeBytes=10MiB',
    'allowedContentTypes=image/*, application/PDF',
    'userQuotaFiles=100',
    'projectQuotaBytes=none',
  ]);
  assert.deepEqual(settings, {
    ...defaultProjectSettings,
    signup: 'closed',
    anonymousSignup: true,
    maxFileSizeBytes: 10 * 1024 * 1024,
    allowedContentTypes: ['image/*', 'application/pdf'],
    userQuotaFiles: 100,
  });
  assert.deepEqual(assignSettings(settings, ['signup=', 'allowedContentTypes=']), {
    ...settings,
    signup: 'open',
    allowedContentTypes: [],
  });
});

it('refuses unknown names, missing values and malformed values with VALIDATION_FAILED naming the setting', () => {
  for (const [assignments, pattern] of [
    [['colour=blue'], /unknown setting "colour"/],
    [['signup'], /signup=value/],
    [['signup=maybe'], /signup must be one of open, closed/],
    [['maxFileSizeBytes=-1'], /maxFileSizeBytes must be a size/],
    [['maxFileSizeBytes=10 parsecs'], /maxFileSizeBytes must be a size/],
    [['userQuotaFiles=1.5'], /userQuotaFiles must be a whole number/],
    [['allowedContentTypes=image'], /allowedContentTypes: "image" is not a type\/subtype/],
    [[], /name=value/],
  ] as const) {
    assert.throws(
      () => assignSettings(defaultProjectSettings, assignments),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VALIDATION_FAILED');
        assert.match(error.message, pattern);
        return true;
      },
    );
  }
});

it('reads stored JSON over the defaults, ignoring what it cannot use', () => {
  assert.deepEqual(readStoredSettings('{}'), defaultProjectSettings);
  assert.deepEqual(readStoredSettings('not json'), defaultProjectSettings);
  assert.deepEqual(readStoredSettings('null'), defaultProjectSettings);
  assert.deepEqual(
    readStoredSettings('{"signup":"closed","maxFileSizeBytes":"big","userQuotaBytes":-5,"removedSetting":1}'),
    { ...defaultProjectSettings, signup: 'closed' },
  );
});

it('reads sizes in bytes and binary units', () => {
  assert.equal(parseByteSize('1048576', 'x'), 1048576);
  assert.equal(parseByteSize('512KiB', 'x'), 512 * 1024);
  assert.equal(parseByteSize('1.5 GiB', 'x'), 1.5 * 1024 ** 3);
  assert.equal(parseByteSize('NONE', 'x'), null);
});

it('matches content types exactly or by a type/* wildcard, ignoring parameters and case', () => {
  assert.equal(isContentTypeAllowed('text/plain', []), true);
  assert.equal(isContentTypeAllowed('image/PNG', ['image/*']), true);
  assert.equal(isContentTypeAllowed('text/plain; charset=utf-8', ['text/plain']), true);
  assert.equal(isContentTypeAllowed('text/html', ['text/plain', 'image/*']), false);
  assert.equal(isContentTypeAllowed('imagex/png', ['image/*']), false);
});

it('reads token lifetimes within their bounds and admin roles as a non-empty list of role names', () => {
  const set = (assignment: string) => assignSettings(defaultProjectSettings, [assignment]);
  assert.equal(set('accessTokenLifetimeSeconds=60').accessTokenLifetimeSeconds, 60);
  assert.equal(set('accessTokenLifetimeSeconds=86400').accessTokenLifetimeSeconds, 86400);
  assert.equal(set('accessTokenLifetimeSeconds=none').accessTokenLifetimeSeconds, null);
  for (const wrong of ['59', '86401', '1e3', '-60', '600.5', 'soon'])
    assert.throws(() => set(`accessTokenLifetimeSeconds=${wrong}`), { code: 'VALIDATION_FAILED' }, wrong);
  assert.deepEqual(set('adminRoles= admin , staff,admin').adminRoles, ['admin', 'staff']);
  for (const wrong of [',', 'Admin', 'a b', 'admin,-x'])
    assert.throws(() => set(`adminRoles=${wrong}`), { code: 'VALIDATION_FAILED' }, wrong);
  assert.deepEqual(readStoredSettings('{"adminRoles":[]}', { adminRoles: ['owner'] }).adminRoles, ['owner']);
  assert.deepEqual(readStoredSettings('{}', { adminRoles: ['owner'] }).adminRoles, ['owner']);
  assert.equal(readStoredSettings('{"accessTokenLifetimeSeconds":5}').accessTokenLifetimeSeconds, null);
});

it("adminRoles= restores the project's own admin role, not the generic one", () => {
  const project = {
    settings: { ...defaultProjectSettings, adminRoles: ['owner', 'staff'] },
    allowedOrigins: [],
    adminRole: 'owner',
  };
  assert.deepEqual(assignProjectSettings(project, ['adminRoles=']).adminRoles, ['owner']);
  assert.deepEqual(assignProjectSettings(project, ['adminRoles=admin']).adminRoles, ['admin']);
});

it('takes an accountLinkUrl only on an origin the project allows', () => {
  const project = {
    settings: defaultProjectSettings,
    allowedOrigins: ['https://app.example'],
    adminRole: 'admin',
  };
  const settings = assignProjectSettings(project, ['accountLinkUrl=https://app.example/auth/{purpose}']);
  assert.equal(settings.accountLinkUrl, 'https://app.example/auth/{purpose}');
  assert.throws(
    () => assignProjectSettings(project, ['accountLinkUrl=https://evil.example/{purpose}']),
    /https:\/\/evil.example is not an origin this project allows/,
  );
  for (const bad of [
    'ftp://app.example/x',
    'https://app.example/x#frag',
    'https://u:p@app.example/',
    'not a url',
  ])
    assert.throws(() => assignProjectSettings(project, [`accountLinkUrl=${bad}`]), /accountLinkUrl must be/);
  assert.equal(assignProjectSettings(project, ['accountLinkUrl=none']).accountLinkUrl, null);
});

it('sets mail templates one part at a time, bounded, and restores a part with an empty value', () => {
  const settings = assignSettings(defaultProjectSettings, [
    'mailTemplates.passwordReset.subject=Reset for {{project}}',
    'mailTemplates.magicLink.text=Sign in: {{link}}',
  ]);
  assert.deepEqual(settings.mailTemplates, {
    passwordReset: { subject: 'Reset for {{project}}' },
    magicLink: { text: 'Sign in: {{link}}' },
  });
  assert.deepEqual(assignSettings(settings, ['mailTemplates.magicLink.text=']).mailTemplates, {
    passwordReset: { subject: 'Reset for {{project}}' },
  });
  assert.throws(
    () => assignSettings(settings, ['mailTemplates.welcome.text=hi']),
    /mailTemplates\.<passwordReset/,
  );
  assert.throws(
    () => assignSettings(settings, [`mailTemplates.magicLink.subject=${'x'.repeat(201)}`]),
    /longer than 200/,
  );
  assert.equal(
    readStoredSettings(JSON.stringify({ mailTemplates: { welcome: {} } })).mailTemplates,
    defaultProjectSettings.mailTemplates,
  );
});
