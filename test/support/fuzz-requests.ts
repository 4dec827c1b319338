import fc from 'fast-check';
import type { FuzzFixture } from './fuzz-fixture.ts';
import { requestMutation } from './fuzz-mutations.ts';
import type { WireRequest } from './wire-client.ts';

// Seeded generators of mutated HTTP requests: start from a valid request to each endpoint of
// both planes and the probes, then change its method, path, query, headers or body. The
// campaign (fuzz-campaign.ts) sends them and checks every answer.

export type FuzzCase = { template: string; mutations: string[]; request: WireRequest };

const fileName = fc.stringMatching(/^[a-z0-9]{1,12}$/);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

function templates(
  f: FuzzFixture,
): Array<{ weight: number; name: string; request: fc.Arbitrary<WireRequest> }> {
  const app = { 'sb-app-id': f.appId, 'sb-app-secret': f.appSecret };
  const auth = { ...app, authorization: `Bearer ${f.token}` };
  const withJson = { ...auth, 'content-type': 'application/json' };
  const fileIds = fc.constantFrom(f.verifiedFileId, f.unverifiedFileId);
  const aclTarget = fc.oneof(
    fc.constantFrom(`user/${f.strangerId}`, `user/${f.userId}`),
    fc.constantFrom('role/user', 'role/editors', 'role/admin'),
  );
  const constant = (request: WireRequest) => fc.constant(request);
  const list: Array<{ weight: number; name: string; request: fc.Arbitrary<WireRequest> }> = [
    { weight: 5, name: 'GET /healthz', request: constant({ method: 'GET', path: '/healthz', headers: {} }) },
    { weight: 5, name: 'GET /readyz', request: constant({ method: 'GET', path: '/readyz', headers: {} }) },
    { weight: 5, name: 'GET /docs', request: constant({ method: 'GET', path: '/docs', headers: {} }) },
    {
      weight: 10,
      name: 'OPTIONS /api/v1 (preflight)',
      request: constant({
        method: 'OPTIONS',
        path: '/api/v1/file',
        headers: {
          origin: f.allowedOrigin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'sb-app-id, content-type, authorization',
        },
      }),
    },
    {
      // Logins and signups cost an argon2 hash each: a few go a long way.
      weight: 1,
      name: 'POST /api/v1/auth/login',
      request: fc.boolean().map((right) => ({
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { ...app, 'content-type': 'application/json' },
        body: json({ email: f.email, password: right ? f.password : 'wrong password' }),
      })),
    },
    {
      weight: 1,
      name: 'POST /api/v1/auth/signup',
      request: fileName.map((name) => ({
        method: 'POST',
        path: '/api/v1/auth/signup',
        headers: { ...app, 'content-type': 'application/json' },
        body: json({ email: `${name}@fuzz.example`, password: f.password, displayName: name }),
      })),
    },
    {
      weight: 1,
      name: 'POST /api/v1/auth/signup/anonymous',
      request: fc.boolean().map((withBody) => ({
        method: 'POST',
        path: '/api/v1/auth/signup/anonymous',
        headers: withBody ? { ...app, 'content-type': 'application/json' } : app,
        body: withBody ? json({}) : undefined,
      })),
    },
    {
      weight: 3,
      name: 'GET /api/v1/users?email=',
      request: fc.constantFrom(f.email, 'nobody@fuzz.example').map((email) => ({
        method: 'GET',
        path: `/api/v1/users?email=${encodeURIComponent(email)}`,
        headers: auth,
      })),
    },
    {
      weight: 2,
      name: 'POST /api/v1/auth/refresh',
      request: constant({
        method: 'POST',
        path: '/api/v1/auth/refresh',
        headers: { ...app, 'content-type': 'application/json' },
        body: json({ refreshToken: f.refreshToken }),
      }),
    },
    {
      weight: 1,
      name: 'POST /api/v1/auth/logout',
      request: fc.boolean().map((byBody) => ({
        method: 'POST',
        path: '/api/v1/auth/logout',
        headers: byBody ? { ...app, 'content-type': 'application/json' } : auth,
        body: byBody ? json({ refreshToken: f.refreshToken }) : undefined,
      })),
    },
    {
      weight: 15,
      name: 'GET /api/v1/user',
      request: constant({ method: 'GET', path: '/api/v1/user', headers: auth }),
    },
    {
      weight: 15,
      name: 'POST /api/v1/file',
      request: fc.tuple(fileName, fc.constantFrom('user', '*')).map(([name, scope]) => ({
        method: 'POST',
        path: '/api/v1/file',
        headers: withJson,
        body: json({ filePath: `fuzz/new/${name}.txt`, permissionScope: scope }),
      })),
    },
    {
      weight: 15,
      name: 'GET /api/v1/file (list)',
      request: fc
        .tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 3 }))
        .map(([size, page]) => ({
          method: 'GET',
          path: `/api/v1/file?pageSize=${size}&pageNumber=${page}&filePath=fuzz%2F`,
          headers: auth,
        })),
    },
    {
      weight: 20,
      name: 'GET /api/v1/file/:id',
      request: fc.tuple(fileIds, fc.integer({ min: 1, max: 3600 })).map(([id, seconds]) => ({
        method: 'GET',
        path: `/api/v1/file/${id}?expiresInSeconds=${seconds}`,
        headers: auth,
      })),
    },
    {
      weight: 15,
      name: 'POST /api/v1/file/:id/verify',
      request: fileIds.map((id) => ({
        method: 'POST',
        path: `/api/v1/file/${id}/verify`,
        headers: withJson,
        body: json({ etag: f.etag }),
      })),
    },
    {
      weight: 20,
      name: 'POST|DELETE /api/v1/file/:id/acl/…',
      request: fc
        .tuple(fc.constantFrom('POST', 'DELETE'), fileIds, aclTarget)
        .map(([method, id, target]) => ({
          method,
          path: `/api/v1/file/${id}/acl/${target}`,
          headers: auth,
        })),
    },
    {
      weight: 3,
      name: 'POST /api/v1/file/:id/acl/email/:email',
      request: fc.tuple(fileIds, fc.constantFrom(f.email, 'nobody@fuzz.example')).map(([id, email]) => ({
        method: 'POST',
        path: `/api/v1/file/${id}/acl/email/${encodeURIComponent(email)}`,
        headers: auth,
      })),
    },
    {
      weight: 10,
      name: 'DELETE /api/v1/file/:id',
      // A file of another user: the owner's own files stay for the rest of the campaign.
      request: constant({
        method: 'DELETE',
        path: `/api/v1/file/${f.verifiedFileId}`,
        headers: { ...app, authorization: `Bearer ${f.strangerToken}` },
      }),
    },
    {
      weight: 12,
      name: 'PUT upload link (raw)',
      request: fc
        .tuple(fc.constantFrom(...f.uploadLinks, f.verifiedUploadLink), fc.uint8Array({ maxLength: 2048 }))
        .map(([link, bytes]) => ({
          method: 'PUT',
          path: link,
          headers: { 'content-type': 'text/plain' },
          body: Buffer.from(bytes),
        })),
    },
    {
      weight: 12,
      name: 'PUT upload link (multipart)',
      request: fc
        .tuple(fc.constantFrom(...f.uploadLinks, f.verifiedUploadLink), fc.string({ maxLength: 200 }))
        .map(([link, content]) => ({
          method: 'PUT',
          path: link,
          headers: { 'content-type': 'multipart/form-data; boundary=FuzzBoundary' },
          body: Buffer.from(
            `--FuzzBoundary\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n` +
              `--FuzzBoundary\r\nContent-Disposition: form-data; name="data"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--FuzzBoundary--\r\n`,
          ),
        })),
    },
    {
      weight: 10,
      name: 'OPTIONS /blob/v1 (preflight)',
      request: constant({
        method: 'OPTIONS',
        path: f.uploadLinks[0]!,
        headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'PUT' },
      }),
    },
    {
      weight: 5,
      name: 'GET unknown route',
      request: constant({ method: 'GET', path: '/nowhere', headers: {} }),
    },
  ];
  const { downloadLink } = f;
  if (downloadLink) {
    list.push({
      weight: 25,
      name: 'GET|HEAD download link',
      request: fc
        .tuple(
          fc.constantFrom('GET', 'HEAD'),
          fc.constantFrom(undefined, 'bytes=0-3', 'bytes=-2', 'bytes=2-', 'bytes=100-'),
        )
        .map(([method, range]) => ({
          method,
          path: downloadLink,
          headers: range ? { range } : ({} as Record<string, string>),
        })),
    });
  }
  return list;
}

/** One case: a valid request to some endpoint, then none to three mutations of it. */
export function fuzzCase(fixture: FuzzFixture): fc.Arbitrary<FuzzCase> {
  const template = fc.oneof(
    ...templates(fixture).map(({ weight, name, request }) => ({
      weight,
      arbitrary: request.map((valid) => ({ name, valid })),
    })),
  );
  const changes = fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 9, arbitrary: fc.array(requestMutation(fixture), { minLength: 1, maxLength: 3 }) },
  );
  return fc.tuple(template, changes).map(([{ name, valid }, applied]) => ({
    template: name,
    mutations: applied.map((m) => m.name),
    request: applied.reduce((request, m) => m.apply(request), valid),
  }));
}
