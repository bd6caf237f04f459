import { Assembler, SECCOMP_DATA, SECCOMP_RET, encodeProgram, type Instruction } from './bpf';
import { AUDIT_ARCH, SYSCALLS, seccompArch, type SeccompArch } from './syscalls';

const EPERM = 1;
const ENOSYS = 38;

/** Calls a kernel never needs: they fail with EPERM (see kernel-workers/README.md). */
export const DENIED_SYSCALLS: readonly string[] = [
  // Reading or writing other processes' memory.
  'ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'process_madvise',
  // A large, often-exploited kernel surface.
  'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'bpf', 'perf_event_open', 'userfaultfd',
  // New namespaces and mounts: the sandbox's layout is final.
  'unshare', 'setns', 'mount', 'umount2', 'pivot_root', 'chroot',
  'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
  // Whole-machine administration.
  'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module',
  'iopl', 'ioperm', 'swapon', 'swapoff', 'reboot', 'syslog', 'acct', 'quotactl', 'quotactl_fd',
  // Kernel keyrings and file handles that bypass path permissions.
  'add_key', 'request_key', 'keyctl', 'open_by_handle_at', 'name_to_handle_at',
];

/** clone() flags that create namespaces (linux/sched.h). */
export const CLONE_NAMESPACE_FLAGS =
  0x00020000 /* NEWNS */ | 0x02000000 /* NEWCGROUP */ | 0x04000000 /* NEWUTS */ | 0x08000000 /* NEWIPC */ |
  0x10000000 /* NEWUSER */ | 0x20000000 /* NEWPID */ | 0x40000000; /* NEWNET */

/** ioctl requests that push input into a terminal (asm-generic/ioctls.h). */
export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;
/** personality() values allowed: PER_LINUX (0) and the query 0xffffffff. */
export const PERSONALITY_ALLOWED: readonly number[] = [0, 0xffffffff];
/** x32 syscalls on x86_64 carry this bit in their number. */
export const X32_SYSCALL_BIT = 0x40000000;

/**
 * The seccomp program for one architecture. Order: a foreign architecture (i386 through
 * int 0x80 on x86_64, for example) kills the process, x32 calls are refused, the denied
 * calls return EPERM, clone3 returns ENOSYS (its flags live in memory a filter cannot
 * read, and glibc falls back to clone), clone with namespace flags, personality other
 * than the default and ioctl TIOCSTI/TIOCLINUX return EPERM; everything else is allowed.
 */
export function seccompProgram(arch: SeccompArch): Instruction[] {
  const table = SYSCALLS[arch];
  const a = new Assembler();
  a.load(SECCOMP_DATA.arch).jeq(AUDIT_ARCH[arch], null, 'kill');
  a.load(SECCOMP_DATA.nr);
  if (arch === 'x86_64') a.jset(X32_SYSCALL_BIT, 'eperm');
  for (const name of DENIED_SYSCALLS) {
    const nr = table[name];
    if (nr !== undefined) a.jeq(nr, 'eperm');
  }
  a.jeq(table.clone3!, 'enosys');
  a.jeq(table.clone!, 'clone');
  a.jeq(table.personality!, 'personality');
  a.jeq(table.ioctl!, 'ioctl');
  a.ret(SECCOMP_RET.ALLOW);

  a.label('clone').load(SECCOMP_DATA.argLow(0)).jset(CLONE_NAMESPACE_FLAGS, 'eperm').ret(SECCOMP_RET.ALLOW);
  a.label('personality').load(SECCOMP_DATA.argLow(0));
  for (const value of PERSONALITY_ALLOWED) a.jeq(value, 'allow');
  a.ret(SECCOMP_RET.ERRNO | EPERM);
  a.label('ioctl').load(SECCOMP_DATA.argLow(1)).jeq(TIOCSTI, 'eperm').jeq(TIOCLINUX, 'eperm');
  a.label('allow').ret(SECCOMP_RET.ALLOW);
  a.label('eperm').ret(SECCOMP_RET.ERRNO | EPERM);
  a.label('enosys').ret(SECCOMP_RET.ERRNO | ENOSYS);
  a.label('kill').ret(SECCOMP_RET.KILL_PROCESS);
  return a.assemble();
}

/** The encoded filter for this machine's architecture, or null where none is defined. */
export function seccompFilterForHost(nodeArch: string = process.arch): Buffer | null {
  const arch = seccompArch(nodeArch);
  return arch ? encodeProgram(seccompProgram(arch)) : null;
}
