/**
 * The whole config of a throwaway test cluster (ceph-cluster.ts): every path in its own
 * folder, every address on loopback. Auth is off (`none`) inside the cluster: it listens on
 * loopback only and holds nothing but test objects, and cephx would add keyrings without
 * testing anything of ours; the S3 API still checks every SigV4 signature against the user's
 * keys.
 */
export function toCephConf(options: {
  fsid: string;
  dir: string;
  /** The monitor's msgr2 address, `v2:127.0.0.1:<port>`. */
  monitor: string;
  /** Where radosgw listens, `http://127.0.0.1:<port>`. */
  endpoint: string;
}): string {
  const { fsid, dir, monitor, endpoint } = options;
  return `[global]
fsid = ${fsid}
mon host = ${monitor}
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr1 = false
auth cluster required = none
auth service required = none
auth client required = none
run dir = ${dir}/run
log file = ${dir}/log/$name.log
mon cluster log file = ${dir}/log/cluster.log
crash dir = ${dir}/crash
keyring = ${dir}/keyring
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
# The monitor batches map changes for a second by default; radosgw's start makes a dozen
# (a pool each, one after another): 15 s become 2.
paxos propose interval = 0.05
# A test machine's disk may be fuller than a monitor likes; its data is a few MiB.
mon data avail warn = 1
mon data avail crit = 0

[mon]
mon data = ${dir}/mon.$id

[osd]
osd data = ${dir}/osd.$id
osd objectstore = memstore
# The bench's 256 MiB rows store a few GiB (bench-stores.ts sets COFFER_RGW_MEMSTORE_BYTES).
memstore device bytes = ${Number(process.env.COFFER_RGW_MEMSTORE_BYTES) || 2 * 1024 ** 3}

[client.rgw]
rgw frontends = beast endpoint=${new URL(endpoint).host}
rgw data = ${dir}/rgw
# radosgw asks for an encrypted monitor connection by default, which auth "none" cannot give.
ms mon client mode = crc secure
${benchGarbageCollection()}`;
}

/**
 * An overwritten or deleted object's data waits two hours for RGW's garbage collector by
 * default: the bench's repeated 256 MiB PUTs would fill the OSD long before. Only for the bench
 * (it sets COFFER_RGW_MEMSTORE_BYTES): the tests keep RGW's defaults.
 */
function benchGarbageCollection(): string {
  if (!process.env.COFFER_RGW_MEMSTORE_BYTES) return '';
  return 'rgw gc obj min wait = 0\nrgw gc processor period = 10\n';
}
