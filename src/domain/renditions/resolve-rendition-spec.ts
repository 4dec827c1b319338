import { renditionsDisabled, validationFailed } from '../../errors/errors.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { findPreset } from './rendition-presets.ts';
import {
  hasRenditionQuery,
  hasSizeParameters,
  parseRenditionQuery,
  type RenditionQuery,
  type RenditionSpec,
  withPresetModifiers,
} from './rendition-spec.ts';

/** What a caller asked for: a preset by name, or free parameters. */
export type RenditionRequest = RenditionQuery & { rendition?: string };

/** Whether a request asks for a rendition at all (else: the plain download, unchanged). */
export function isRenditionRequest(request: RenditionRequest): boolean {
  return request.rendition !== undefined || hasRenditionQuery(request);
}

/**
 * The spec a request names, under the project's `renditions` setting: `off` refuses any,
 * `presets` refuses free parameters (so a client cannot mint thousands of sizes). `animated`
 * and `posterAt` may go beside a preset's name: they are no size (docs/decisions.md).
 */
export function resolveRenditionSpec(
  request: RenditionRequest,
  settings: Pick<ProjectSettings, 'renditions' | 'renditionPresets'>,
): RenditionSpec {
  if (settings.renditions === 'off') throw renditionsDisabled('This project does not render images');
  if (request.rendition !== undefined) {
    if (hasSizeParameters(request))
      throw validationFailed(
        'Ask for a rendition by name or by parameters, not both (only animated and posterAt may go beside a name)',
      );
    const preset = findPreset(settings.renditionPresets, request.rendition);
    if (!preset) {
      const known = Object.keys(settings.renditionPresets);
      throw validationFailed(
        `No rendition preset ${JSON.stringify(request.rendition)}; this project has ${known.length === 0 ? 'none' : known.join(', ')}`,
      );
    }
    return withPresetModifiers(preset, request, request.rendition);
  }
  if (settings.renditions === 'presets')
    throw renditionsDisabled('This project renders presets only: ask with rendition=<name>');
  return parseRenditionQuery(request);
}
