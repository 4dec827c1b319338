import { MemoryBlobStore } from '../../src/blob-stores/memory-blob-store.ts';
import { runBlobStoreContract } from './blob-store.contract.ts';
import { runBlobSweeperContract } from './blob-sweeper.contract.ts';

runBlobStoreContract(
  'MemoryBlobStore',
  async () => ({ store: new MemoryBlobStore(), cleanup: async () => {} }),
  { etagScheme: 'truncated-sha256', holdsBodiesInMemory: true },
);

runBlobSweeperContract('MemoryBlobStore', async () => ({
  store: new MemoryBlobStore(),
  cleanup: async () => {},
}));
