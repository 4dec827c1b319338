import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The settings that name the tools (src/config/settings/media-settings.ts). */
export type MediaToolSettings = {
  ffmpegPath: string;
  ffprobePath: string;
  /** Unset: `heif-dec`, else `heif-convert`. */
  heifDecoderPath: string | undefined;
};

/** Absolute paths of the tools found at start; a missing one is undefined. */
export type MediaTools = {
  prlimit: string | undefined;
  ffmpeg: string | undefined;
  ffprobe: string | undefined;
  heifDecoder: string | undefined;
};

/** util-linux's prlimit, which every run goes through: without it no tool runs. */
const prlimitDirectories = ['/usr/bin', '/bin'];

/**
 * Resolves the tools once, at start (a name with a slash as a path, a bare name on `searchPath`),
 * so a job never searches PATH and the tools' own PATH can stay minimal.
 */
export function findMediaTools(settings: MediaToolSettings, searchPath: string): MediaTools {
  const directories = searchPath.split(path.delimiter).filter((directory) => path.isAbsolute(directory));
  const find = (name: string) => findExecutable(name, directories);
  return {
    prlimit: findExecutable('prlimit', [...prlimitDirectories, ...directories]),
    ffmpeg: find(settings.ffmpegPath),
    ffprobe: find(settings.ffprobePath),
    heifDecoder: settings.heifDecoderPath
      ? find(settings.heifDecoderPath)
      : (find('heif-dec') ?? find('heif-convert')),
  };
}

function findExecutable(name: string, directories: string[]): string | undefined {
  const candidates = name.includes('/')
    ? [path.resolve(name)]
    : directories.map((directory) => path.join(directory, name));
  return candidates.find(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
