import { createHash } from 'node:crypto';
import { admissionUnavailable, fileRejected } from '../../errors/admission-hook-errors.ts';
import { uploadMissing } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Clock } from '../clock.ts';
import { toFileEvent } from '../events/file-events.ts';
import type { CustomData } from '../files/custom-data.ts';
import type { PendingUpload } from '../files/file-record.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import type { AdmissionCaller } from './admission-caller.ts';
import { type AdmissionRecord, toAdmissionRecord, toAdmissionText } from './admission-record.ts';
import type { AdmissionRepository, AdmissionSlot } from './admission-repository.ts';
import { toAdmissionVerdict } from './admission-verdict.ts';

export type AdmissionHookOptions = {
  caller: AdmissionCaller;
  admissions: AdmissionRepository;
  blobs: BlobStore;
  clock: Clock;
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
  /** A signed link to the pending bytes, good until `expiresAt` (Unix s) while they are being admitted. */
  pendingLink: (fileId: string, versionId: string, expiresAt: number) => Promise<string>;
};

/** The upload the hook is asked about, and where its bytes and outcome live. */
export type AdmissionSubject = {
  file: { id: string; projectId: string; filePath: string; creatorId: string; customData: CustomData | null };
  /** The version being made: the file's own id for a new file's first version. */
  versionId: string;
  pinned: PendingUpload;
  /** Where the pinned bytes are stored. */
  key: string;
  /**
   * Where the claim and outcome are kept. Null only where no hook is on: verify records bytes
   * adopted from a direct upload before it asks (keepAdoptedForHook).
   */
  slot: AdmissionSlot | null;
};

/** Slack past the hook's budget before another verify may take over an unanswered claim. */
const claimSlackMs = 5000;

/**
 * Issue 42, item 3: the project's admission hook, asked after the scan and before the commit.
 * The outcome is kept on the pending upload, claimed first by a conditional write: one verify
 * asks, racing or retried verifies answer what it recorded, never a second call.
 */
export class AdmissionHook {
  readonly #o: AdmissionHookOptions;

  constructor(options: AdmissionHookOptions) {
    this.#o = options;
  }

  /** Whether the project has a hook to ask. */
  async isOn(projectId: string): Promise<boolean> {
    const settings = await this.#o.settingsOf(projectId);
    return Boolean(settings.admissionUrl && settings.admissionSecret);
  }

  /** The outcome (null: the project has no hook); FILE_REJECTED or ADMISSION_UNAVAILABLE otherwise. */
  async admit(subject: AdmissionSubject, by: Principal): Promise<AdmissionRecord | null> {
    const settings = await this.#o.settingsOf(subject.file.projectId);
    if (!settings.admissionUrl || !settings.admissionSecret) return null;
    const { slot } = subject;
    const stored = slot ? await this.#o.admissions.read(slot) : null;
    if (stored === undefined) throw uploadMissing();
    const now = this.#o.clock.now();
    const recorded = toAdmissionRecord(stored);
    if (recorded?.result === 'asking' && recorded.until > now.getTime())
      throw admissionUnavailable(
        'another verify is asking it',
        Math.max(1, Math.ceil((recorded.until - now.getTime()) / 1000)),
      );
    if (recorded && recorded.result !== 'asking') return this.#answer(subject, recorded);
    const timeoutSeconds = settings.admissionTimeoutSeconds;
    const claim = toAdmissionText({
      result: 'asking',
      until: now.getTime() + timeoutSeconds * 1000 + claimSlackMs,
    });
    if (slot && !(await this.#o.admissions.swap(slot, stored, claim)))
      throw admissionUnavailable('another verify is asking it');
    const answer = await this.#o.caller.call({
      url: settings.admissionUrl,
      secret: settings.admissionSecret,
      webhookId: toAdmissionWebhookId(subject),
      attemptedAt: now,
      body: await this.#body(subject, now, timeoutSeconds),
      timeoutSeconds,
    });
    const verdict = toAdmissionVerdict(answer);
    const at = this.#o.clock.now().toISOString();
    let outcome: AdmissionRecord;
    if (verdict.kind === 'allow')
      outcome = { result: 'allowed', at, ...(verdict.customData && { customData: verdict.customData }) };
    else if (verdict.kind === 'refuse') outcome = { result: 'refused', at, reason: verdict.reason };
    else if (settings.admissionFailOpen) outcome = { result: 'skipped', at, why: verdict.why };
    else {
      // Nothing is lost: the claim goes, and a later verify asks again.
      if (slot) await this.#o.admissions.swap(slot, claim, null);
      throw admissionUnavailable(verdict.why);
    }
    const event =
      outcome.result === 'refused'
        ? toFileEvent('file.rejected', by, subject.file, this.#o.clock.now(), {
            reason: outcome.reason,
            versionId: subject.versionId,
            sizeBytes: subject.pinned.sizeBytes,
          })
        : undefined;
    if (slot && !(await this.#o.admissions.swap(slot, claim, toAdmissionText(outcome), event))) {
      // Another verify took over a claim that outlived its budget: answer as it left things.
      const now2 = await this.#o.admissions.read(slot);
      const other = toAdmissionRecord(now2 ?? null);
      if (!other || other.result === 'asking') throw admissionUnavailable('another verify is asking it');
      return this.#answer(subject, other);
    }
    return this.#answer(subject, outcome);
  }

  async #answer(subject: AdmissionSubject, record: AdmissionRecord): Promise<AdmissionRecord> {
    if (record.result !== 'refused') return record;
    await this.#o.blobs.delete(subject.key, subject.pinned.blobVersion).catch(() => {});
    throw fileRejected(record.reason);
  }

  async #body(subject: AdmissionSubject, now: Date, timeoutSeconds: number): Promise<string> {
    const { file, pinned, versionId } = subject;
    const expiresAt = Math.floor(now.getTime() / 1000) + timeoutSeconds;
    return JSON.stringify({
      type: 'file.admission',
      timestamp: now.toISOString(),
      data: {
        fileId: file.id,
        versionId,
        filePath: file.filePath,
        creator: file.creatorId,
        size: pinned.sizeBytes,
        contentType: pinned.contentType,
        checksumSha256: pinned.checksumSha256 ?? null,
        customData: file.customData,
        url: await this.#o.pendingLink(file.id, versionId, expiresAt),
      },
    });
  }
}

/**
 * `webhook-id`: the same for every call about the same pending bytes of a version (a receiver
 * dedupes by it); new bytes PUT to the same version before its verify are another question.
 */
export function toAdmissionWebhookId(subject: Pick<AdmissionSubject, 'versionId' | 'pinned'>): string {
  const bytes = createHash('sha256').update(subject.pinned.blobVersion).digest('hex').slice(0, 12);
  return `adm_${subject.versionId}_${bytes}`;
}
