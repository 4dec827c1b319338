import type { Kysely } from 'kysely';
import type {
  AccessEpochRepository,
  AppCredentialRepository,
  FileRepository,
  OperatorRepository,
  ProjectDeletionRepository,
  ProjectRepository,
  RateLimitRepository,
  RefreshTokenRepository,
  SigningKeyRepository,
  StorageUsageRepository,
  UserRepository,
} from '../../domain/ports.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { KyselyAccessEpochRepository } from './kysely-access-epoch-repository.ts';
import { KyselyAppCredentialRepository } from './kysely-app-credential-repository.ts';
import { KyselyFileRepository } from './kysely-file-repository.ts';
import { KyselyOperatorRepository } from './kysely-operator-repository.ts';
import { KyselyProjectDeletionRepository } from './kysely-project-deletion-repository.ts';
import { KyselyProjectRepository } from './kysely-project-repository.ts';
import { KyselyRateLimitRepository } from './kysely-rate-limit-repository.ts';
import { KyselyRefreshTokenRepository } from './kysely-refresh-token-repository.ts';
import { KyselySigningKeyRepository } from './kysely-signing-key-repository.ts';
import { KyselyStorageUsageRepository } from './kysely-storage-usage-repository.ts';
import { KyselyUserRepository } from './kysely-user-repository.ts';

export type Repositories = {
  projects: ProjectRepository;
  users: UserRepository;
  files: FileRepository;
  signingKeys: SigningKeyRepository;
  rateLimits: RateLimitRepository;
  accessEpoch: AccessEpochRepository;
  refreshTokens: RefreshTokenRepository;
  operators: OperatorRepository;
  appCredentials: AppCredentialRepository;
  projectDeletion: ProjectDeletionRepository;
  storageUsage: StorageUsageRepository;
};

/** Every repository over one database handle (SQLite or PostgreSQL alike). */
export function createRepositories(db: Kysely<DatabaseSchema>): Repositories {
  return {
    projects: new KyselyProjectRepository(db),
    users: new KyselyUserRepository(db),
    files: new KyselyFileRepository(db),
    signingKeys: new KyselySigningKeyRepository(db),
    rateLimits: new KyselyRateLimitRepository(db),
    accessEpoch: new KyselyAccessEpochRepository(db),
    refreshTokens: new KyselyRefreshTokenRepository(db),
    operators: new KyselyOperatorRepository(db),
    appCredentials: new KyselyAppCredentialRepository(db),
    projectDeletion: new KyselyProjectDeletionRepository(db),
    storageUsage: new KyselyStorageUsageRepository(db),
  };
}
