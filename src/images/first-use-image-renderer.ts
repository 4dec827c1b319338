import type {
  ImageHeader,
  ImageRenderer,
  ImageSource,
  ImageSummary,
  RenderedImage,
  RenderOptions,
  SourceLimits,
} from '../domain/renditions/image-renderer.ts';
import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';

/**
 * The sharp renderer, loaded by the first image the process reads: sharp and libvips (about
 * 0.1 s of CPU and their native library's memory) are not paid at start by a worker, test
 * server or command that never renders. Set up once, as SharpImageRenderer's constructor does.
 */
export class FirstUseImageRenderer implements ImageRenderer {
  #loading: Promise<ImageRenderer> | undefined;

  async readHeader(prefix: ImageSource, limits: SourceLimits): Promise<ImageHeader | undefined> {
    return (await this.#renderer()).readHeader(prefix, limits);
  }

  async render(source: ImageSource, spec: RenditionSpec, options: RenderOptions): Promise<RenderedImage> {
    return (await this.#renderer()).render(source, spec, options);
  }

  async summarize(source: ImageSource, options: RenderOptions): Promise<ImageSummary> {
    return (await this.#renderer()).summarize(source, options);
  }

  #renderer(): Promise<ImageRenderer> {
    this.#loading ??= import('./sharp-image-renderer.ts').then(
      ({ SharpImageRenderer }) => new SharpImageRenderer(),
    );
    return this.#loading;
  }
}
