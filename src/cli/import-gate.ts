import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Config } from '../config/config.ts';
import type { AdmissionCaller } from '../domain/admission/admission-caller.ts';
import { toAdmissionVerdict } from '../domain/admission/admission-verdict.ts';
import type { Scanner } from '../domain/admission/scanner.ts';
import { systemClock } from '../domain/clock.ts';
import type { ProjectSettings } from '../domain/identity/project-settings.ts';
import { readStoredSettings } from '../domain/identity/read-stored-settings.ts';
import { isAppError } from '../errors/app-error.ts';
import { openAdmissionCaller, openClamdScanner } from '../wiring/scan-services.ts';
import type { ExportedBlob, ExportLine } from './export-dir.ts';
import { toRowBytes } from './exported-rows.ts';

/** A file an import keeps from everyone (quarantined): which version's bytes, and why. */
export type ImportRefusal = { fileId: string; versionId: string; reason: string };

/** What the gate knows of a blob's row: the file, the version, what the hook is told. */
type BlobSubject = {
  projectId: string;
  fileId: string;
  versionId: string;
  filePath: string;
  creator: string;
  customData: unknown;
  sizeBytes: number;
  contentType: string;
  checksumSha256: string | null;
};

/**
 * Issue 42, the gate has no side door: `coffer import` puts bytes that become readable files,
 * so each exported blob passes the scanner (COFFER_SCAN_URL, the project's `scan`) and the
 * project's admission hook as an upload's bytes do at verify. A refusal quarantines the file
 * (its bytes served to no one; an admin releases or deletes it) and is reported per file; a
 * scanner or hook that cannot answer stops the import before any row is written (nothing is
 * lost: import again), unless the server or project fails open.
 */
export class ImportGate {
  readonly #settings = new Map<string, ProjectSettings>();
  readonly #subjects = new Map<string, BlobSubject>();
  readonly #refusals = new Map<string, ImportRefusal>();
  readonly #o: { scanner?: Scanner; scanFailOpen: boolean; caller: AdmissionCaller };

  constructor(options: { scanner?: Scanner; scanFailOpen: boolean; caller: AdmissionCaller }) {
    this.#o = options;
  }

  /** Learns the projects' settings and the files behind each blob, from the export's rows. */
  async learn(lines: AsyncIterable<ExportLine>): Promise<void> {
    for await (const { table, row } of lines) {
      if (table === 'projects')
        this.#settings.set(String(row.id), readStoredSettings(String(row.settings ?? '{}')));
      const bytes = toRowBytes(table, row);
      if (!bytes) continue;
      const file = table === 'file_versions' ? row.file_id : row.id;
      this.#subjects.set(bytes.name, {
        projectId: String(row.project_id),
        fileId: String(file),
        versionId: String(row.version_id ?? file),
        filePath: String(row.file_path ?? ''),
        creator: String(row.creator_id ?? row.created_by ?? ''),
        customData: typeof row.custom_data === 'string' ? JSON.parse(row.custom_data) : null,
        sizeBytes: Number(row.content_size_bytes ?? row.size_bytes ?? 0),
        contentType: String(row.content_type ?? 'application/octet-stream'),
        checksumSha256: typeof row.content_sha256 === 'string' ? row.content_sha256 : null,
      });
    }
  }

  /** Judges one exported blob; throws when a scanner or hook cannot answer and nothing fails open. */
  async judge(blob: ExportedBlob): Promise<void> {
    const subject = this.#subjects.get(blob.key);
    const settings = subject && this.#settings.get(subject.projectId);
    if (!subject || !settings) return;
    const reason = (await this.#scan(blob, subject, settings)) ?? (await this.#ask(subject, settings));
    if (reason)
      this.#refusals.set(subject.fileId, { fileId: subject.fileId, versionId: subject.versionId, reason });
  }

  async #scan(
    blob: ExportedBlob,
    subject: BlobSubject,
    settings: ProjectSettings,
  ): Promise<string | undefined> {
    const { scanner } = this.#o;
    if (!scanner || settings.scan === 'off') return undefined;
    if (subject.sizeBytes > scanner.maxBytes) {
      if (settings.scanOversize === 'allow') return undefined;
      return `too large to scan (over ${scanner.maxBytes} bytes)`;
    }
    try {
      const verdict = await scanner.scan(createReadStream(blob.file));
      return verdict.result === 'infected' ? verdict.signature : undefined;
    } catch (error) {
      if (this.#o.scanFailOpen && isAppError(error) && error.code === 'SCANNER_UNAVAILABLE') return undefined;
      throw new Error(`the malware scanner could not judge ${subject.fileId}: ${String(error)}`);
    }
  }

  async #ask(subject: BlobSubject, settings: ProjectSettings): Promise<string | undefined> {
    if (!settings.admissionUrl || !settings.admissionSecret) return undefined;
    const now = new Date();
    const { projectId: _project, sizeBytes, creator, ...rest } = subject;
    const body = JSON.stringify({
      type: 'file.admission',
      timestamp: now.toISOString(),
      // No url: an import serves nothing while it runs (docs/security.md, "Admission hooks").
      data: { ...rest, creator, size: sizeBytes, url: null, imported: true },
    });
    const bytes = createHash('sha256').update(`${subject.fileId}.${subject.versionId}.import`).digest('hex');
    const answer = await this.#o.caller.call({
      url: settings.admissionUrl,
      secret: settings.admissionSecret,
      webhookId: `adm_${subject.versionId}_${bytes.slice(0, 12)}`,
      attemptedAt: now,
      body,
      timeoutSeconds: settings.admissionTimeoutSeconds,
    });
    const verdict = toAdmissionVerdict(answer);
    if (verdict.kind === 'refuse') return `admission: ${verdict.reason}`;
    if (verdict.kind === 'unavailable' && !settings.admissionFailOpen)
      throw new Error(
        `the admission hook of project ${subject.projectId} did not answer for ${subject.fileId}: ${verdict.why}`,
      );
    return undefined;
  }

  /** The files refused, to report. */
  refusals(): ImportRefusal[] {
    return [...this.#refusals.values()];
  }

  /** A files or trashed_files row of a refused file, quarantined (served to no one). */
  quarantine(table: string, row: Record<string, unknown>, now: Date): Record<string, unknown> {
    if (table !== 'files' && table !== 'trashed_files') return row;
    const refusal = this.#refusals.get(String(row.id));
    if (!refusal) return row;
    return {
      ...row,
      quarantined_at: now.getTime(),
      quarantine_signature: refusal.reason.slice(0, 500),
      quarantine_version_id: refusal.versionId,
    };
  }
}

/** The gate of `coffer import` on this server: its scanner (one scan at a time) and the hooks' caller. */
export function openImportGate(config: Config): ImportGate {
  const scanner = openClamdScanner(config, systemClock, 1);
  return new ImportGate({
    ...(scanner && { scanner }),
    scanFailOpen: config.scanFailOpen,
    caller: openAdmissionCaller(config),
  });
}
