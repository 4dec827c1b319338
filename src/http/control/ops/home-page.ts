import type { RouteRegistrar } from '../../route-context.ts';

/**
 * Links are relative, so the page also points the right way behind a proxy that serves Coffer
 * under a path. No script, style or image: the policy can allow nothing.
 */
const homePageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coffer</title>
</head>
<body>
<h1>Coffer</h1>
<p>File storage with access lists and signed links. This server speaks HTTP APIs; people start here:</p>
<ul>
<li><a href="./console">Console</a>: projects, users and files, for operators.</li>
<li><a href="./docs">API reference</a>: every operation of the JSON API (<code>/api/v1</code>) and the signed links (<code>/blob/v1</code>); the OpenAPI document is at <a href="./docs/json">/docs/json</a>.</li>
</ul>
</body>
</html>
`;

const pagePolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** GET /: a small page for a person who opens the server's address, pointing to /console and /docs. */
export const homePage: RouteRegistrar = (app) => {
  const html = { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } };
  app.get('/', { schema: { response: { 200: html } } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pagePolicy)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=300')
      .send(homePageHtml),
  );
};
