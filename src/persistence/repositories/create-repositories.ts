import type { Kysely } from 'kysely';
import type { AccountTokenRepository } from '../../domain/accounts/account-token.ts';
import type { EmailChangeRepository } from '../../domain/accounts/email-change-repository.ts';
import type { AdmissionRepository } from '../../domain/admission/admission-repository.ts';
import type { QuarantineRepository } from '../../domain/admission/quarantine-repository.ts';
import type { ArchiveRepository } from '../../domain/archives/archive-repository.ts';
import type { AuditPeople } from '../../domain/events/audit-people.ts';
import type { DeliveryQueue } from '../../domain/events/delivery-queue.ts';
import type { EventLog } from '../../domain/events/event-log.ts';
import type { WebhookRepository } from '../../domain/events/webhook-repository.ts';
import type { FileRepository } from '../../domain/files/file-repository.ts';
import type { StorageUsageRepository } from '../../domain/files/storage-usage-repository.ts';
import type { FolderChangeRepository } from '../../domain/folders/folder-change-repository.ts';
import type { FolderRepository } from '../../domain/folders/folder-repository.ts';
import type { FolderShareRepository } from '../../domain/folders/folder-share-repository.ts';
import type { SharedWithMeRepository } from '../../domain/folders/shared-with-me-repository.ts';
import type { AccessEpochRepository } from '../../domain/identity/access-epoch-repository.ts';
import type { AppCredentialRepository } from '../../domain/identity/app-credential-repository.ts';
import type { ProjectDeletionRepository } from '../../domain/identity/project-deletion-repository.ts';
import type { ProjectRepository } from '../../domain/identity/project-repository.ts';
import type { RefreshTokenRepository } from '../../domain/identity/refresh-token-repository.ts';
import type { ServiceKeyRepository } from '../../domain/identity/service-key-repository.ts';
import type { UserRepository } from '../../domain/identity/user-repository.ts';
import type { SigningKeyRepository } from '../../domain/keys/signing-key-repository.ts';
import type { MailQueue } from '../../domain/mail/mail-queue.ts';
import type { MfaRepository } from '../../domain/mfa/mfa-repository.ts';
import type { OperatorRepository } from '../../domain/operators/operator-repository.ts';
import type { PasskeyRepository } from '../../domain/passkeys/passkey-repository.ts';
import type { RateLimitRepository } from '../../domain/rate-limits/rate-limit-repository.ts';
import type { ImageSummaryRepository } from '../../domain/renditions/image-summary-repository.ts';
import type { RenditionRepository } from '../../domain/renditions/rendition-repository.ts';
import type { ResumableUploadRepository } from '../../domain/resumable/resumable-upload-repository.ts';
import type {
  OAuthFlowRepository,
  UserIdentityRepository,
} from '../../domain/sign-in/sign-in-repositories.ts';
import type { TrashRepository } from '../../domain/trash/trash-repository.ts';
import type { VersionRepository } from '../../domain/versions/version-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { KyselyAccountTokenRepository } from './accounts/kysely-account-token-repository.ts';
import { KyselyEmailChangeRepository } from './accounts/kysely-email-change-repository.ts';
import { KyselyAdmissionRepository } from './admission/kysely-admission-repository.ts';
import { KyselyQuarantineRepository } from './admission/kysely-quarantine-repository.ts';
import { KyselyArchiveRepository } from './archives/kysely-archive-repository.ts';
import { FileViewCache } from './files/file-view-cache.ts';
import { KyselyAccessEpochRepository } from './kysely-access-epoch-repository.ts';
import { KyselyAppCredentialRepository } from './kysely-app-credential-repository.ts';
import { KyselyAuditPeople } from './kysely-audit-people.ts';
import { KyselyDeliveryQueue } from './kysely-delivery-queue.ts';
import { KyselyEventLog } from './kysely-event-log.ts';
import { KyselyFileRepository } from './kysely-file-repository.ts';
import { KyselyFolderChangeRepository } from './kysely-folder-change-repository.ts';
import { KyselyFolderRepository } from './kysely-folder-repository.ts';
import { KyselyFolderShareRepository } from './kysely-folder-share-repository.ts';
import { KyselyImageSummaryRepository } from './kysely-image-summary-repository.ts';
import { KyselyMailQueue } from './kysely-mail-queue.ts';
import { KyselyOperatorRepository } from './kysely-operator-repository.ts';
import { KyselyProjectDeletionRepository } from './kysely-project-deletion-repository.ts';
import { KyselyProjectRepository } from './kysely-project-repository.ts';
import { KyselyRateLimitRepository } from './kysely-rate-limit-repository.ts';
import { KyselyRefreshTokenRepository } from './kysely-refresh-token-repository.ts';
import { KyselyRenditionRepository } from './kysely-rendition-repository.ts';
import { KyselyResumableUploadRepository } from './kysely-resumable-upload-repository.ts';
import { KyselyServiceKeyRepository } from './kysely-service-key-repository.ts';
import { KyselySharedWithMeRepository } from './kysely-shared-with-me-repository.ts';
import { KyselySigningKeyRepository } from './kysely-signing-key-repository.ts';
import { KyselyStorageUsageRepository } from './kysely-storage-usage-repository.ts';
import { KyselyUserRepository } from './kysely-user-repository.ts';
import { KyselyVersionRepository } from './kysely-version-repository.ts';
import { KyselyWebhookRepository } from './kysely-webhook-repository.ts';
import { KyselyMfaRepository } from './mfa/kysely-mfa-repository.ts';
import { KyselyPasskeyRepository } from './passkeys/kysely-passkey-repository.ts';
import { KyselyOAuthFlowRepository } from './sign-in/kysely-oauth-flow-repository.ts';
import { KyselyUserIdentityRepository } from './sign-in/kysely-user-identity-repository.ts';
import { KyselyTrashRepository } from './trash/kysely-trash-repository.ts';

export type Repositories = {
  projects: ProjectRepository;
  users: UserRepository;
  files: FileRepository;
  /** Files' earlier versions and new versions on their way (issue 38). */
  versions: VersionRepository;
  /** Folders and their subtrees' counts (issue 36). */
  folders: FolderRepository;
  signingKeys: SigningKeyRepository;
  rateLimits: RateLimitRepository;
  accessEpoch: AccessEpochRepository;
  refreshTokens: RefreshTokenRepository;
  operators: OperatorRepository;
  appCredentials: AppCredentialRepository;
  /** Server-only admin credentials (issue 35). */
  serviceKeys: ServiceKeyRepository;
  projectDeletion: ProjectDeletionRepository;
  storageUsage: StorageUsageRepository;
  resumableUploads: ResumableUploadRepository;
  renditions: RenditionRepository;
  imageSummaries: ImageSummaryRepository;
  webhooks: WebhookRepository;
  deliveries: DeliveryQueue;
  events: EventLog;
  /** The emails an audit page names (issue 43). */
  auditPeople: AuditPeople;
  mail: MailQueue;
  /** Single-use tokens of account mails (issue 23). */
  accountTokens: AccountTokenRepository;
  emailChanges: EmailChangeRepository;
  /** Folder moves and deletes (issue 36). */
  folderChanges: FolderChangeRepository;
  folderShares: FolderShareRepository;
  oauthFlows: OAuthFlowRepository;
  userIdentities: UserIdentityRepository;
  /** The files and folders shared with a user, newest first (issue 36). */
  sharedWithMe: SharedWithMeRepository;
  /** Trashed files: restore, purge, the trash pages (issue 38). */
  trash: TrashRepository;
  /** ZIPs of many files, their layouts (issue 40). */
  archives: ArchiveRepository;
  /** Users' WebAuthn credentials and the challenges handed out (issue 41). */
  passkeys: PasskeyRepository;
  /** Quarantined files and what a re-scan reads (issue 42). */
  quarantine: QuarantineRepository;
  /** The admission hook's outcomes on pending uploads (issue 42). */
  admissions: AdmissionRepository;
  /** Second factors, recovery codes, MFA tokens (issue 41). */
  mfa: MfaRepository;
};

/** Every repository over one database handle (SQLite or PostgreSQL alike). */
export function createRepositories(db: Kysely<DatabaseSchema>): Repositories {
  // One kept record a file, whether a point read, a folder page or a shared-with-me page read it.
  const fileViews = new FileViewCache(db);
  return {
    projects: new KyselyProjectRepository(db),
    users: new KyselyUserRepository(db),
    files: new KyselyFileRepository(db, fileViews),
    versions: new KyselyVersionRepository(db),
    folders: new KyselyFolderRepository(db, fileViews),
    signingKeys: new KyselySigningKeyRepository(db),
    rateLimits: new KyselyRateLimitRepository(db),
    accessEpoch: new KyselyAccessEpochRepository(db),
    refreshTokens: new KyselyRefreshTokenRepository(db),
    operators: new KyselyOperatorRepository(db),
    appCredentials: new KyselyAppCredentialRepository(db),
    serviceKeys: new KyselyServiceKeyRepository(db),
    projectDeletion: new KyselyProjectDeletionRepository(db),
    storageUsage: new KyselyStorageUsageRepository(db),
    resumableUploads: new KyselyResumableUploadRepository(db),
    renditions: new KyselyRenditionRepository(db),
    imageSummaries: new KyselyImageSummaryRepository(db),
    webhooks: new KyselyWebhookRepository(db),
    deliveries: new KyselyDeliveryQueue(db),
    events: new KyselyEventLog(db),
    auditPeople: new KyselyAuditPeople(db),
    mail: new KyselyMailQueue(db),
    accountTokens: new KyselyAccountTokenRepository(db),
    emailChanges: new KyselyEmailChangeRepository(db),
    folderChanges: new KyselyFolderChangeRepository(db),
    folderShares: new KyselyFolderShareRepository(db),
    oauthFlows: new KyselyOAuthFlowRepository(db),
    userIdentities: new KyselyUserIdentityRepository(db),
    sharedWithMe: new KyselySharedWithMeRepository(db, fileViews),
    trash: new KyselyTrashRepository(db),
    archives: new KyselyArchiveRepository(db),
    passkeys: new KyselyPasskeyRepository(db),
    quarantine: new KyselyQuarantineRepository(db),
    admissions: new KyselyAdmissionRepository(db),
    mfa: new KyselyMfaRepository(db),
  };
}
