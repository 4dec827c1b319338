import { type IssuedLink, LinkIssuer } from '../domain/links/link-issuer.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** The LinkIssuer, counting each link it issues (coffer_links_issued_total). */
export class CountingLinkIssuer extends LinkIssuer {
  readonly #metrics: ServiceMetrics;

  constructor(options: ConstructorParameters<typeof LinkIssuer>[0], metrics: ServiceMetrics) {
    super(options);
    this.#metrics = metrics;
  }

  override async issueUpload(...args: Parameters<LinkIssuer['issueUpload']>): Promise<IssuedLink> {
    const link = await super.issueUpload(...args);
    this.#metrics.linkIssued('upload');
    return link;
  }

  override async issueVersionUpload(
    ...args: Parameters<LinkIssuer['issueVersionUpload']>
  ): Promise<IssuedLink> {
    const link = await super.issueVersionUpload(...args);
    this.#metrics.linkIssued('upload');
    return link;
  }

  override async issueDownload(...args: Parameters<LinkIssuer['issueDownload']>): Promise<IssuedLink> {
    const link = await super.issueDownload(...args);
    this.#metrics.linkIssued('download');
    return link;
  }

  override async issueArchive(...args: Parameters<LinkIssuer['issueArchive']>): Promise<IssuedLink> {
    const link = await super.issueArchive(...args);
    this.#metrics.linkIssued('download');
    return link;
  }

  override async issueRendition(...args: Parameters<LinkIssuer['issueRendition']>): Promise<IssuedLink> {
    const link = await super.issueRendition(...args);
    this.#metrics.linkIssued('rendition');
    return link;
  }
}
