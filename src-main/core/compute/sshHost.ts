import { AppError } from '../../../src-preload/contract/errors';
import { META_DIR, STDERR_LOG, STDOUT_LOG, WRAPPER, type FindRequest, type FindResult, type Scheduler, type SchedulerStatus, type SubmitRequest } from './scheduler';
import type { Transport } from './transport';

/**
 * A job on a plain host over SSH (a GPU box without a scheduler): the wrapper runs in its
 * own session (setsid, nohup), so it outlives the SSH connection and the app; its process
 * group is what cancel signals. How it ended is read from the files the wrapper writes in
 * the job folder (exit code, times, node, a timeout marker). A job whose process is gone
 * without an exit record is reported failed with that reason.
 */

// Runs in the job folder. `$!` is the wrapper's pid, and with setsid also its process group.
const LAUNCH = `cd -- "$1" || exit 96
setsid nohup bash ${WRAPPER} > ${STDOUT_LOG} 2> ${STDERR_LOG} < /dev/null &
echo $! > ${META_DIR}/pid
echo $!`;

/** The scheduler id of a job adopted without a pid (its folder's records say how it ends). */
const UNRECORDED = 'unrecorded';

/** Seconds a cancelled job's processes get to end on TERM before they are killed. */
const CANCEL_GRACE_S = 20;

// One line per fact; the service never trusts a missing file as success. The job runs while
// its wrapper or any process of its group does (a child that outlived a killed wrapper still runs).
const QUERY = `cd -- "$1" 2>/dev/null || { echo "state nodir"; exit 0; }
M=${META_DIR}
pid=$(cat $M/pid 2>/dev/null)
# No pid file (it could not be written): the pid the launch answered, when there was one.
[ -n "$pid" ] || case "$2" in ''|*[!0-9]*) ;; *) pid=$2 ;; esac
if [ -f $M/exit_code ]; then echo "state exited $(cat $M/exit_code)"
elif [ -n "$pid" ] && { kill -0 "$pid" || kill -0 -- "-$pid"; } 2>/dev/null; then if [ -f $M/cancelled ]; then echo "state cancelling"; else echo "state running"; fi
elif [ -f $M/timed_out ]; then echo "state timedout"
elif [ -f $M/cancelled ]; then echo "state cancelled"
else echo "state vanished"; fi
[ -f $M/timed_out ] && echo "timed_out yes"
[ -f $M/cancelled ] && echo "cancelled yes"
echo "node $(cat $M/node 2>/dev/null)"
echo "started $(cat $M/started_at 2>/dev/null)"
echo "ended $(cat $M/ended_at 2>/dev/null)"
echo "now $(date -u +%Y-%m-%dT%H:%M:%SZ)"`;

// A job that already wrote its exit record is left as it ended (a late cancel must not turn
// a completed job into a cancelled one). TERM goes to the whole process group; whatever
// ignores it is killed after a grace period by a detached helper (ssh returns at once).
const CANCEL = `cd -- "$1" || exit 96
[ -f ${META_DIR}/exit_code ] && exit 0
touch ${META_DIR}/cancelled
pid=$(cat ${META_DIR}/pid 2>/dev/null)
[ -n "$pid" ] || case "$2" in ''|*[!0-9]*) ;; *) pid=$2 ;; esac
[ -n "$pid" ] || exit 0
kill -TERM -- "-$pid" 2>/dev/null
setsid nohup bash -c 'for i in $(seq ${CANCEL_GRACE_S}); do kill -0 -- "-$1" 2>/dev/null || exit 0; sleep 1; done; kill -KILL -- "-$1" 2>/dev/null' o4s-kill "$pid" > /dev/null 2>&1 < /dev/null &
exit 0`;

// What an interrupted launch left in the job folder: the pid the launch (or the wrapper
// itself) writes, or the records of a wrapper that started without it. Then the wrapper is
// looked for on the host (Linux /proc): the session leader running .openai4s/run.sh in
// this folder. Found, its pid is recorded and answered; not found, it is gone without an
// exit record ("gone"); a host without /proc cannot say ("started").
const FIND = `cd -- "$1" 2>/dev/null || { echo "nodir"; exit 0; }
M=${META_DIR}
pid=$(cat $M/pid 2>/dev/null)
if [ -n "$pid" ]; then echo "pid $pid"; exit 0; fi
if [ -f $M/exit_code ]; then echo "ended"; exit 0; fi
if [ ! -f $M/started_at ]; then echo "none"; exit 0; fi
if [ ! -r /proc/self/cmdline ]; then echo "started"; exit 0; fi
here=$(pwd -P)
for p in /proc/[0-9]*; do
  [ "$(readlink $p/cwd 2>/dev/null)" = "$here" ] || continue
  [ "$(tr '\\0' ' ' < $p/cmdline 2>/dev/null)" = "bash ${WRAPPER} " ] || continue
  w=\${p#/proc/}; s=$(cat $p/stat 2>/dev/null); read -r _ _ group _ <<< "\${s##*) }"
  [ "$group" = "$w" ] || continue
  echo "$w" > $M/pid; echo "pid $w"; exit 0
done
echo "gone"`;

function facts(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(' ');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1).trim();
    else if (line.trim()) out[line.trim()] = '';
  }
  return out;
}

const iso = (text: string | undefined) => (text && !Number.isNaN(new Date(text).getTime()) ? new Date(text).toISOString() : null);

export function statusFromFacts(f: Record<string, string>): SchedulerStatus {
  const [word, codeText] = (f.state ?? 'vanished').split(' ');
  const startedAt = iso(f.started);
  const endedAt = iso(f.ended);
  const until = endedAt ?? iso(f.now);
  const elapsedSeconds = startedAt && until ? Math.max(0, Math.round((Date.parse(until) - Date.parse(startedAt)) / 1000)) : null;
  const base = { node: f.node || null, partition: null, elapsedSeconds, startedAt, endedAt };
  switch (word) {
    case 'running':
    case 'cancelling':
      return { ...base, state: 'running', exitCode: null, endedAt: null, reason: word === 'cancelling' ? 'cancel requested' : null };
    case 'exited': {
      const exitCode = Number(codeText);
      if (f.timed_out !== undefined) return { ...base, state: 'timeout', exitCode, reason: 'the time limit was reached (the script was stopped)' };
      if (f.cancelled !== undefined) return { ...base, state: 'cancelled', exitCode, reason: 'cancelled' };
      return { ...base, state: exitCode === 0 ? 'completed' : 'failed', exitCode, reason: exitCode > 128 ? `ended by signal ${exitCode - 128}` : null };
    }
    case 'timedout':
      return { ...base, state: 'timeout', exitCode: null, reason: 'the time limit was reached: the job was stopped' };
    case 'cancelled':
      return { ...base, state: 'cancelled', exitCode: null, reason: 'cancelled: the process group was signalled' };
    case 'nodir':
      return { ...base, state: 'failed', exitCode: null, reason: 'the job folder is gone from the host' };
    default:
      return { ...base, state: 'failed', exitCode: null, reason: 'the job process is gone and left no exit record (killed, or the host restarted)' };
  }
}

export class SshHostScheduler implements Scheduler {
  constructor(private readonly transport: Transport) {}

  async submit(request: SubmitRequest): Promise<string> {
    const r = await this.transport.exec(['bash', '-c', LAUNCH, 'o4s-launch', request.dir]);
    const pid = /^(\d+)\s*$/.exec(r.stdout.trim().split('\n').pop() ?? '')?.[1];
    if (r.code !== 0 || !pid) {
      const why = r.stderr.trim() || `exit ${r.code}`;
      throw new AppError('unavailable', `Could not start the job on ${this.transport.where}: the launch did not report the job's process id (${why}). Check ${request.dir}/${STDERR_LOG} there, and whether the job runs anyway.`);
    }
    return pid;
  }

  async find(request: FindRequest): Promise<FindResult> {
    if (!request.dir) return { absent: `its job folder is not on ${this.transport.where}` };
    const r = await this.transport.exec(['bash', '-c', FIND, 'o4s-find', request.dir]);
    if (r.code !== 0) throw new AppError('unavailable', `Could not look for the job on ${this.transport.where}: ${r.stderr.trim() || `exit ${r.code}`}.`);
    const [word, pid] = r.stdout.trim().split('\n').pop()!.split(' ');
    if (word === 'pid' && pid && /^\d+$/.test(pid)) return { found: pid };
    // The wrapper ran but its pid was never written: the folder's records say how it ends.
    // So did one whose wrapper is gone without an exit record: the query reports it failed, saying so.
    if (word === 'ended' || word === 'gone') return { found: UNRECORDED };
    if (word === 'started') return { unsure: `the job started on ${this.transport.where} but never reported its process id, and this host cannot be asked which processes run in its folder` };
    return { absent: word === 'nodir' ? `its job folder is not on ${this.transport.where}` : `the job folder on ${this.transport.where} shows it was never launched` };
  }

  async query(id: string, dir: string): Promise<SchedulerStatus> {
    const r = await this.transport.exec(['bash', '-c', QUERY, 'o4s-query', dir, id]);
    if (r.code !== 0) throw new AppError('unavailable', `Could not read the job's state on ${this.transport.where}: ${r.stderr.trim() || `exit ${r.code}`}.`);
    const f = facts(r.stdout);
    const status = statusFromFacts(f);
    if (id === UNRECORDED && f.state === 'vanished') {
      status.reason = `the job started on ${this.transport.where} but never reported its process id (its launch was cut off), and no process of it runs there now, with no exit record (killed, or the host restarted); see its log ${dir}/${STDERR_LOG} there`;
    }
    return status;
  }

  async cancel(id: string, dir: string): Promise<void> {
    const r = await this.transport.exec(['bash', '-c', CANCEL, 'o4s-cancel', dir, id]);
    if (r.code !== 0) throw new AppError('unavailable', `Could not cancel the job on ${this.transport.where}: ${r.stderr.trim() || `exit ${r.code}`}.`);
  }
}
