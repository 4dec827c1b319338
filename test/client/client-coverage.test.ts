import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { CofferClient } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../support/in-process-server.ts';

/** The tus protocol and the console-free admin surface, spoken by upload() and the CLI. */
const viaUpload = 'upload() and resumeUpload() speak it for the caller (tus 1.0 above the size threshold)';
const adminOnly =
  "an admin operation (the app secret, or a project admin's token): the CLI's and the console's, not an app user's";
const operatorOnly = "the operator's probes and pages, not an app's API";

/**
 * Every operation of the OpenAPI document → the @coffer/client method that calls it, or why
 * the client leaves it out. An operation added to the API fails this test until someone decides.
 */
const coverage: Record<string, string | { exempt: string }> = {
  login: 'login',
  signup: 'signup',
  signupAnonymous: 'signupAnonymous',
  convertAnonymous: 'auth.convertAnonymous',
  refreshSession: 'refresh',
  logout: 'logout',
  changePassword: 'changePassword',
  getProfile: 'profile',
  findUser: 'findUser',
  listSessions: 'sessions.list',
  endSession: 'sessions.end',
  endOtherSessions: 'sessions.endOthers',
  requestPasswordReset: 'account.requestPasswordReset',
  confirmPasswordReset: 'account.confirmPasswordReset',
  requestEmailVerification: 'account.requestEmailVerification',
  confirmEmailVerification: 'account.confirmEmailVerification',
  requestMagicLink: 'account.requestMagicLink',
  confirmMagicLink: 'account.signInWithMagicLink',
  requestEmailChange: 'account.requestEmailChange',
  confirmEmailChange: 'account.confirmEmailChange',
  revertEmailChange: 'account.revertEmailChange',
  deleteOwnAccount: 'account.deleteAccount',
  requestUpload: 'upload',
  uploadContent: 'upload',
  verifyUpload: 'upload',
  requestVersion: 'replace',
  uploadVersionContent: 'replace',
  verifyVersion: 'replace',
  listVersions: 'versions',
  restoreVersion: 'restoreVersion',
  deleteVersion: 'deleteVersion',
  createResumableUpload: { exempt: viaUpload },
  appendResumableUpload: 'resumeUpload',
  getResumableUploadOffset: 'resumeUpload',
  terminateResumableUpload: { exempt: viaUpload },
  overrideResumableUpload: {
    exempt: 'the X-HTTP-Method-Override form of PATCH, for clients that cannot send PATCH',
  },
  startMultipartUpload: {
    exempt: "parallel parts straight to S3, for Uppy's @uppy/aws-s3; the client uploads over tus",
  },
  listMultipartParts: { exempt: "parallel parts straight to S3, for Uppy's @uppy/aws-s3" },
  completeMultipartUpload: { exempt: "parallel parts straight to S3, for Uppy's @uppy/aws-s3" },
  abortMultipartUpload: { exempt: "parallel parts straight to S3, for Uppy's @uppy/aws-s3" },
  signMultipartRequest: { exempt: "Uppy's @uppy/aws-s3 signRequest (examples/uppy/coffer-uppy-s3.js)" },
  getFile: 'get',
  listFiles: 'listPage',
  createArchive: 'archive',
  updateFile: 'update',
  copyFile: 'copy',
  moveFile: 'move',
  revokeLinks: 'revokeLinks',
  holdFile: 'hold',
  releaseFile: 'release',
  releaseQuarantine: 'releaseQuarantine',
  listTrash: 'trash',
  restoreTrashed: 'restore',
  purgeTrashed: 'purge',
  emptyTrash: 'emptyTrash',
  deleteFile: 'delete',
  deleteFiles: 'deleteMany',
  shareWithUser: 'share',
  shareWithRole: 'share',
  shareWithEmail: 'share',
  unshareWithUser: 'unshare',
  unshareWithRole: 'unshare',
  browseFolder: 'folders.list',
  moveFolder: 'folders.move',
  deleteFolder: 'folders.delete',
  shareFolder: 'folders.share',
  unshareFolder: 'folders.unshare',
  listFolderShares: 'folders.shares',
  listSharedWithMe: 'shared',
  downloadContent: 'download',
  headContent: { exempt: 'download() answers the Response, whose headers are the HEAD answer' },
  downloadRendition: 'get',
  headRendition: { exempt: "get() with rendition options gives the link; a HEAD of it is the browser's" },
  downloadArchive: {
    exempt:
      "archive() answers the signed link; fetch or the browser reads it (Range resumes: the CLI's files zip)",
  },
  headArchive: { exempt: "archive() answers the link with archiveBytes; a HEAD of it is the reader's" },
  streamEvents: 'events',
  startProviderSignIn: 'auth.signInWith',
  providerSignInCallback: {
    exempt:
      "the provider sends the popup (or the page) there; auth.signInWith waits for it, it is no app's call",
  },
  takeProviderSignInToken: 'auth.finishSignIn',
  unlinkProvider: 'auth.unlinkProvider',
  passkeySignInOptions: 'passkeys.signInOptions',
  signInWithPasskey: 'passkeys.signIn',
  passkeyRegistrationOptions: 'passkeys.registrationOptions',
  registerPasskey: 'passkeys.register',
  listPasskeys: 'passkeys.list',
  removePasskey: 'passkeys.remove',
  passMfa: 'mfa.complete',
  startTotp: 'mfa.startTotp',
  confirmTotp: 'mfa.confirmTotp',
  removeTotp: 'mfa.removeTotp',
  listAuditEvents: { exempt: adminOnly },
  createWebhook: { exempt: adminOnly },
  listWebhooks: { exempt: adminOnly },
  getWebhook: { exempt: adminOnly },
  updateWebhook: { exempt: adminOnly },
  deleteWebhook: { exempt: adminOnly },
  rotateWebhookSecret: { exempt: adminOnly },
  testWebhook: { exempt: adminOnly },
  listWebhookDeliveries: { exempt: adminOnly },
  retryWebhookDelivery: { exempt: adminOnly },
  homePage: { exempt: operatorOnly },
  health: { exempt: operatorOnly },
  ready: { exempt: operatorOnly },
  metrics: { exempt: operatorOnly },
};

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.stop());

it('@coffer/client has a method for every operation of the OpenAPI document, or says why not', async () => {
  const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const operationIds = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
  );
  assert.ok(operationIds.length > 40, `the document lists ${operationIds.length} operations`);
  const client = new CofferClient({ baseUrl: server.baseUrl, appId: 'an-app' });
  const undecided = operationIds.filter((id) => coverage[id] === undefined);
  assert.deepEqual(undecided, [], 'operations with neither a client method nor a reason to have none');
  for (const id of operationIds) {
    const method = coverage[id]!;
    if (typeof method !== 'string') continue;
    const found = method
      .split('.')
      .reduce<unknown>((on, name) => (on as Record<string, unknown>)?.[name], client);
    assert.equal(typeof found, 'function', `${id} → client.${method} is not a method`);
  }
  const gone = Object.keys(coverage).filter((id) => !operationIds.includes(id));
  assert.deepEqual(gone, [], 'the table names operations the API no longer has');
});
