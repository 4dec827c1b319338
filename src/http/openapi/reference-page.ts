import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/**
 * The interactive reference at /docs (Swagger UI, its assets served from the package: no outside
 * network) under Coffer's name: its title, logo and icon instead of Swagger's and Fastify's. The
 * logo travels inline (a data: URL the page's CSP allows), the icon from this origin.
 */

/** A mark of its own, drawn inline: no file to ship, no outside URL. */
const logo = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">' +
    '<rect x="2" y="6" width="28" height="28" rx="5" fill="#f2f2f2"/>' +
    '<rect x="8" y="16" width="16" height="12" rx="2" fill="#1b1b1b"/>' +
    '<path d="M11 16v-3a5 5 0 0 1 10 0v3" stroke="#1b1b1b" stroke-width="3" fill="none"/>' +
    '<text x="40" y="29" font-family="sans-serif" font-size="24" font-weight="bold" fill="#f2f2f2">Coffer</text>' +
    '</svg>',
);

const icon = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect width="32" height="32" rx="6" fill="#1b1b1b"/>' +
    '<rect x="8" y="14" width="16" height="12" rx="2" fill="#f2f2f2"/>' +
    '<path d="M11 14v-3a5 5 0 0 1 10 0v3" stroke="#f2f2f2" stroke-width="3" fill="none"/>' +
    '</svg>',
);

export const referencePageOptions: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  // Everything from this origin: no CDN, no validator badge, and no upgrade-insecure-requests
  // (the plugin's default), which would send a browser on plain-HTTP loopback to https.
  staticCSP:
    "default-src 'self'; base-uri 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'",
  uiConfig: { deepLinking: true, displayOperationId: true, tryItOutEnabled: true, validatorUrl: null },
  logo: { type: 'image/svg+xml', content: logo },
  theme: {
    title: 'Coffer API reference',
    favicon: [{ filename: 'coffer.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: icon }],
  },
};
