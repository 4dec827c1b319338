import { setTimeout as delay } from 'node:timers/promises';
import type { CofferProcess } from '../support/coffer-process.ts';
import { streamedPut } from '../support/streamed-put.ts';
import type { KillSwitch } from './crash-round.ts';
import type {
  FileState,
  KnownFile,
  Lineage,
  PendingReplace,
  Place,
  StepKind,
  VersionStep,
} from './version-model.ts';
import { toContent } from './version-model.ts';

// The steps of the versions-and-trash crash round (versions-round.ts): each sent, answered (or
// cut off by the kill) and applied to the client's model of the lineage's files.

/** One lineage's steps: each sent, answered (or cut off) and applied to the client's model. */
export class StepRunner {
  readonly #coffer: CofferProcess;
  readonly #lineage: Lineage;
  readonly #serviceKey: string;
  readonly #kill: KillSwitch;
  readonly #kept: number;

  constructor(coffer: CofferProcess, lineage: Lineage, serviceKey: string, kill: KillSwitch, kept: number) {
    this.#coffer = coffer;
    this.#lineage = lineage;
    this.#serviceKey = serviceKey;
    this.#kill = kill;
    this.#kept = kept;
  }

  /** Sends one request of a step; a cut-off answer leaves `step.answer` unset and throws. */
  async #send(
    step: VersionStep,
    method: string,
    url: string,
    options: { body?: unknown; admin?: boolean } = {},
  ) {
    const auth = options.admin ? { serviceKey: this.#serviceKey } : { token: this.#lineage.token };
    const response = await this.#coffer.client.call(method, url, { ...auth, body: options.body });
    step.answer = { status: response.status, ...(response.body?.code ? { code: response.body.code } : {}) };
    this.#kill.tick('answer');
    return response;
  }

  async run(kind: StepKind, file: KnownFile, index: number): Promise<void> {
    const step: VersionStep = { kind, fileId: file.fileId, expected: 200 };
    this.#lineage.steps.push(step);
    const { state } = file;
    const refused = state.held && ['replace', 'restoreVersion', 'deleteVersion', 'trash'].includes(kind);
    if (refused) step.expected = 409;
    const promoted = (versionId: string): FileState => ({
      ...state,
      versionId,
      earlier: [state.versionId, ...state.earlier].slice(0, this.#kept),
    });
    const id = file.fileId;
    switch (kind) {
      case 'replace':
        return this.#replace(step, file, promoted, index);
      case 'restoreVersion': {
        const from = this.#lineage.random.pick(state.earlier);
        if (!refused) file.ifApplied = { ...promoted('?'), content: file.contents.get(from) };
        const answer = await this.#send(step, 'POST', `/api/v1/file/${id}/versions/${from}/restore`);
        if (answer.status !== 200) return this.#settle(file);
        file.contents.set(answer.body.versionId, file.contents.get(from)!);
        file.state = promoted(answer.body.versionId);
        // The next promotion's noncurrent_at is then strictly later: pruning's order is the model's.
        await delay(2);
        return this.#settle(file);
      }
      case 'deleteVersion': {
        const versionId = this.#lineage.random.pick(state.earlier);
        step.expected = refused ? 409 : 204;
        const earlier = state.earlier.filter((other) => other !== versionId);
        if (!refused) file.ifApplied = { ...state, earlier };
        const answer = await this.#send(step, 'DELETE', `/api/v1/file/${id}/versions/${versionId}`);
        if (answer.status === 204) file.state = { ...state, earlier };
        return this.#settle(file);
      }
      case 'copy': {
        const filePath = file.filePath.replace(/\.bin$/, `-copy${index}.bin`);
        const content = file.contents.get(state.versionId)!;
        this.#lineage.pendingCopy = { filePath, content };
        const answer = await this.#send(step, 'POST', `/api/v1/file/${id}/copy`, { body: { filePath } });
        this.#lineage.pendingCopy = undefined;
        if (answer.status !== 200) return;
        const copyId = answer.body._id as string;
        this.#lineage.files.push({
          fileId: copyId,
          filePath,
          contents: new Map([[copyId, content]]),
          state: { place: 'live', versionId: copyId, earlier: [], held: false },
        });
        return;
      }
      case 'hold':
      case 'release': {
        const held = kind === 'hold';
        if (!held) step.expected = 204; // a release answers 204, held or not
        file.ifApplied = { ...state, held };
        const answer = await (held
          ? this.#send(step, 'POST', `/api/v1/file/${id}/hold`, {
              body: { reason: 'crash test' },
              admin: true,
            })
          : this.#send(step, 'DELETE', `/api/v1/file/${id}/hold`, { admin: true }));
        if (answer.status === step.expected) file.state = { ...state, held };
        return this.#settle(file);
      }
      case 'trash':
        return this.#move(step, file, 'DELETE', `/api/v1/file/${id}`, 204, refused ? state.place : 'trashed');
      case 'restore':
        return this.#move(step, file, 'POST', `/api/v1/trash/${id}/restore`, 200, 'live');
      case 'purge':
        return this.#move(step, file, 'DELETE', `/api/v1/trash/${id}`, 204, 'purged');
      case 'empty': {
        // One purge per trashed file, each its own transaction: a cut-off empty leaves any subset.
        const trashed = this.#lineage.files.filter((other) => other.state.place === 'trashed');
        for (const other of trashed) other.ifApplied = { ...other.state, place: 'purged' };
        const answer = await this.#send(step, 'POST', '/api/v1/trash/empty');
        if (answer.status === 200) for (const other of trashed) other.state.place = 'purged';
        for (const other of trashed) this.#settle(other);
        return;
      }
    }
  }

  async #move(step: VersionStep, file: KnownFile, method: string, url: string, status: number, place: Place) {
    if (step.expected === 200) step.expected = status;
    file.ifApplied = { ...file.state, place };
    const answer = await this.#send(step, method, url);
    if (answer.status === status) file.state = { ...file.state, place };
    this.#settle(file);
  }

  /** request, PUT, verify: the kill may land between any two (a pending upload stays behind). */
  async #replace(step: VersionStep, file: KnownFile, promoted: (id: string) => FileState, index: number) {
    const requested = await this.#send(step, 'POST', `/api/v1/file/${file.fileId}/versions`, { body: {} });
    if (requested.status !== 200) return;
    const versionId = requested.body.versionId as string;
    const body = this.#lineage.random.bytes(
      this.#lineage.random.int(0, 64 * 1024),
      `${file.filePath}#${index}`,
    );
    const put = { ...toContent(body), sent: false, answered: false };
    const pending: PendingReplace = {
      file,
      versionId,
      verifyPath: new URL(requested.body.postVerifyUploadUrl).pathname,
      put,
    };
    this.#lineage.pendingReplace = pending;
    if (this.#kill.fired) return;
    step.answer = undefined;
    put.sent = true;
    const stored = await streamedPut({
      url: requested.body.putFileUrl,
      body,
      multipart: false,
      chunked: false,
    });
    step.answer = { status: stored.status };
    this.#kill.tick('answer');
    if (stored.status !== 200) return;
    put.answered = true;
    if (this.#kill.fired) return;
    file.contents.set(versionId, toContent(body));
    file.ifApplied = { ...promoted(versionId), content: toContent(body) };
    const verified = await this.#send(step, 'POST', pending.verifyPath, { body: { etag: stored.etag } });
    if (verified.status !== 200) return;
    this.#lineage.pendingReplace = undefined;
    file.state = promoted(versionId);
    this.#settle(file);
    await delay(2); // as after a restore: the next promotion is strictly later
  }

  /** An answered step leaves no doubt. */
  #settle(file: KnownFile): void {
    file.ifApplied = undefined;
  }
}

/** Answers other than the one expected (a held file's 409 FILE_ON_HOLD included). */
export function toUnexpectedSteps(lineages: Lineage[]): string[] {
  return lineages.flatMap((lineage) =>
    lineage.steps
      .filter((step) => step.answer && step.answer.status !== step.expected)
      .map(
        (step) =>
          `l${lineage.index} ${step.kind} ${step.fileId}: ${step.answer!.status} ${step.answer!.code ?? ''} (expected ${step.expected})`,
      ),
  );
}
