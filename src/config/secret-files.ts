import { readFileSync } from 'node:fs';
import { ConfigError, toFileErrorReason } from './config-error.ts';
import type { Setting } from './setting.ts';

/**
 * A secret-bearing setting's value from the file `COFFER_X_FILE` names (the convention of the
 * official database images, POSTGRES_PASSWORD_FILE): container and systemd secrets arrive as
 * mounted files, and a value in the environment shows in `ps e`, `podman inspect` and crash
 * dumps. Every setting marked `secret` takes one. Undefined when the variable is not set.
 * Setting both COFFER_X and COFFER_X_FILE is refused: which one wins would be a guess.
 */
export function readSecretFile(
  setting: Setting,
  env: NodeJS.ProcessEnv,
): { raw: string; source: string } | undefined {
  if (!setting.secret) return undefined;
  const variable = `${setting.env}_FILE`;
  const file = env[variable];
  if (file === undefined) return undefined;
  if (env[setting.env] !== undefined)
    throw new ConfigError(`${variable}: ${setting.env} is set as well; set only one of them`);
  if (file === '') throw new ConfigError(`${variable}: needs the path of a file`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${variable}=${JSON.stringify(file)}: ${toFileErrorReason(error)}`, {
      cause: error,
    });
  }
  // Files written by `echo` or an editor end in a line break that is no part of the secret.
  return { raw: text.replace(/\r?\n$/, ''), source: variable };
}
