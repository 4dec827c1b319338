import { maxTimerSeconds, type Setting } from '../setting.ts';

/** Resumable uploads (tus 1.0): how long they live and how often expired ones are removed. */
export const resumableSettings = {
  resumableExpirySeconds: {
    env: 'COFFER_RESUMABLE_EXPIRY_SECONDS',
    kind: 'integer',
    defaultValue: 86400,
    min: 60,
    max: maxTimerSeconds,
    doc: 'How long a resumable upload stays resumable after its last accepted byte (`Upload-Expires`); then its bytes and reservation go.',
  },
  resumableMaxAgeSeconds: {
    env: 'COFFER_RESUMABLE_MAX_AGE_SECONDS',
    kind: 'integer',
    defaultValue: 604800,
    min: 60,
    max: 604800,
    doc: "Upper bound of a resumable upload's life from its creation, however active: its URL (`resumableUrl`, `Location`) expires then.",
  },
  resumableSweepIntervalSeconds: {
    env: 'COFFER_RESUMABLE_SWEEP_INTERVAL_SECONDS',
    kind: 'integer',
    defaultValue: 300,
    min: 0,
    max: maxTimerSeconds,
    doc: '`serve` removes expired resumable uploads (temp files, S3 multipart uploads) at start and then this often; 0 turns it off.',
  },
} as const satisfies Record<string, Setting>;
