import {
  assignMailTemplate,
  isMailTemplateName,
  type MailTemplateTable,
} from '../mail/mail-template-settings.ts';
import { assignPreset, isPresetName, type PresetTable } from '../renditions/rendition-presets.ts';
import {
  assignOAuthSetting,
  isOAuthSettingName,
  type OAuthProviderTable,
} from './oauth-provider-settings.ts';
import {
  assignTrustedIssuerSetting,
  isTrustedIssuerSettingName,
  type TrustedIssuerTable,
} from './trusted-issuer-settings.ts';

/**
 * Settings that are tables, set one entry at a time under a dotted name
 * (`renditions.<name>=…`, `mailTemplates.<purpose>.<part>=…`, `oauth.<name>.<field>=…`, `trustedIssuers.<name>.<field>=…`).
 */
type TableSetting = {
  /** The project setting holding the table. */
  key: 'mailTemplates' | 'renditionPresets' | 'oauth' | 'trustedIssuers';
  matches(settingName: string): boolean;
  assign(table: never, settingName: string, text: string): unknown;
};

export const tableSettings: readonly TableSetting[] = [
  {
    key: 'mailTemplates',
    matches: isMailTemplateName,
    assign: (table: MailTemplateTable, name: string, text: string) => assignMailTemplate(table, name, text),
  },
  {
    key: 'renditionPresets',
    matches: isPresetName,
    assign: (table: PresetTable, name: string, text: string) => assignPreset(table, name, text.trim()),
  },
  {
    key: 'oauth',
    matches: isOAuthSettingName,
    assign: (table: OAuthProviderTable, name: string, text: string) => assignOAuthSetting(table, name, text),
  },
  {
    key: 'trustedIssuers',
    matches: isTrustedIssuerSettingName,
    assign: (table: TrustedIssuerTable, name: string, text: string) =>
      assignTrustedIssuerSetting(table, name, text),
  },
];
