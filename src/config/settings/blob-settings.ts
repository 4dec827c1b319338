import { maxTimerSeconds, type Setting } from '../setting.ts';

/** How uploads reach the blob store, and when stray blobs and never-verified files are removed. */
export const blobSettings = {
  uploadMode: {
    env: 'COFFER_UPLOAD_MODE',
    kind: 'string',
    defaultValue: 'gateway',
    choices: ['gateway', 'direct'],
    doc: '`gateway`: uploads stream through Coffer (multipart form or raw body). `direct` (S3 only): putFileUrl is an S3 presigned PUT for raw bodies.',
  },
  gcIntervalSeconds: {
    env: 'COFFER_GC_INTERVAL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 0,
    doc: '`serve` looks for stray blobs (what `coffer gc --apply` removes) at start and then this often; 0 turns it off.',
  },
  gcGraceSeconds: {
    env: 'COFFER_GC_GRACE_SECONDS',
    kind: 'integer',
    min: 1,
    doc: 'Age before an unreferenced blob version or an incomplete multipart upload counts as stray; more than the request timeout (default: request timeout + 3600).',
  },
  unverifiedGraceSeconds: {
    env: 'COFFER_UNVERIFIED_GRACE_SECONDS',
    kind: 'integer',
    defaultValue: 86400,
    min: 0,
    max: maxTimerSeconds,
    doc: 'How long after its upload link expired a never-verified file record (and its bytes) is kept before `serve` removes it.',
  },
  unverifiedSweepIntervalSeconds: {
    env: 'COFFER_UNVERIFIED_SWEEP_INTERVAL_SECONDS',
    kind: 'integer',
    defaultValue: 600,
    min: 0,
    max: maxTimerSeconds,
    doc: '`serve` removes expired never-verified file records at start and then this often; 0 turns it off.',
  },
} as const satisfies Record<string, Setting>;
