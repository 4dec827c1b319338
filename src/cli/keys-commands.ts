import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { systemClock } from '../domain/clock.ts';
import { toKeyLifetimes } from '../domain/keys/key-lifetimes.ts';
import { type RotatedKey, rotateSigningKeys } from '../domain/keys/rotate-signing-keys.ts';
import type { SigningKey } from '../domain/keys/signing-key-repository.ts';
import { withStores } from './admin-commands.ts';
import type { Command } from './command.ts';
import { withLocalPaths } from './local-paths.ts';

const purposeChoices: Record<string, SigningKey['purpose'][]> = {
  all: ['token', 'link'],
  token: ['token'],
  link: ['link'],
};

/** `coffer keys rotate [--purpose token|link|all]`: new signing keys (domain/keys/rotate-signing-keys.ts). */
export async function keysRotate(config: Config, input: { purpose?: string; retireOld: boolean }) {
  const purposes = purposeChoices[input.purpose ?? 'all'];
  if (!purposes) throw new ConfigError(`--purpose ${input.purpose}: must be token, link or all`);
  return withStores(config, async (repositories) => {
    const rotated = await rotateSigningKeys(repositories.signingKeys, {
      purposes,
      retireOld: input.retireOld,
      clock: systemClock,
      // The servers' settings decide how long old keys verify: give this command the same.
      lifetimes: toKeyLifetimes(config),
    });
    return { rotated: rotated.map((key) => ({ ...key, signsFrom: key.signsFrom.toISOString() })) };
  });
}

export function toKeysText(rotated: Array<Omit<RotatedKey, 'signsFrom'> & { signsFrom: string }>): string {
  return rotated
    .map((key) =>
      [
        `${key.purpose} key ${key.keyId} signs from ${key.signsFrom}`,
        `  still verifying until what they signed expires: ${key.verifying.join(', ') || 'none'}`,
        `  deleted (retired): ${key.deleted.join(', ') || 'none'}`,
      ].join('\n'),
    )
    .join('\n');
}

/** `coffer keys rotate`: the signing keys of tokens and links. */
export const keysCommands: Record<string, Command> = {
  'keys rotate': {
    summary: 'New signing keys for tokens and links; old ones verify until what they signed expires.',
    flags: ['purpose', 'retire-old', 'json'],
    run: async (config, values) => {
      const input = { purpose: values.purpose, retireOld: values['retire-old'] ?? false };
      const result = await withLocalPaths(config, { stores: 'existing' }, () => keysRotate(config, input));
      return { json: result, text: toKeysText(result.rotated) };
    },
  },
};
