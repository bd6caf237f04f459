/**
 * Syscall numbers for the two architectures the Linux sandbox supports, only for the
 * calls the seccomp filter names. Source: Linux's arch/x86/entry/syscalls/syscall_64.tbl
 * (x86_64) and include/uapi/asm-generic/unistd.h (aarch64 uses the generic table), as
 * shipped in Debian 12's linux-libc-dev 6.1 (`/usr/include/x86_64-linux-gnu/asm/unistd_64.h`,
 * `/usr/include/asm-generic/unistd.h`). A name missing on an architecture (iopl and
 * ioperm exist only on x86) is simply absent from that table.
 */

export type SeccompArch = 'x86_64' | 'aarch64';

/** `seccomp_data.arch` values (linux/audit.h). */
export const AUDIT_ARCH: Record<SeccompArch, number> = {
  x86_64: 0xc000003e,
  aarch64: 0xc00000b7,
};

/**
 * Calls added since Linux 5.1 (number 424 on) have one number on every architecture
 * (the syscall table unification), so both tables share them from here.
 */
const UNIFIED_SYSCALLS: Readonly<Record<string, number>> = {
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  clone3: 435,
  pidfd_getfd: 438,
  process_madvise: 440,
  mount_setattr: 442,
  quotactl_fd: 443,
};

export const SYSCALLS: Record<SeccompArch, Readonly<Record<string, number>>> = {
  x86_64: {
    ioctl: 16,
    clone: 56,
    ptrace: 101,
    syslog: 103,
    personality: 135,
    pivot_root: 155,
    chroot: 161,
    acct: 163,
    mount: 165,
    umount2: 166,
    swapon: 167,
    swapoff: 168,
    reboot: 169,
    iopl: 172,
    ioperm: 173,
    init_module: 175,
    delete_module: 176,
    quotactl: 179,
    kexec_load: 246,
    add_key: 248,
    request_key: 249,
    keyctl: 250,
    unshare: 272,
    perf_event_open: 298,
    name_to_handle_at: 303,
    open_by_handle_at: 304,
    setns: 308,
    process_vm_readv: 310,
    process_vm_writev: 311,
    finit_module: 313,
    kexec_file_load: 320,
    bpf: 321,
    userfaultfd: 323,
    ...UNIFIED_SYSCALLS,
  },
  aarch64: {
    ioctl: 29,
    umount2: 39,
    mount: 40,
    pivot_root: 41,
    chroot: 51,
    quotactl: 60,
    acct: 89,
    personality: 92,
    unshare: 97,
    kexec_load: 104,
    init_module: 105,
    delete_module: 106,
    syslog: 116,
    ptrace: 117,
    reboot: 142,
    add_key: 217,
    request_key: 218,
    keyctl: 219,
    clone: 220,
    swapon: 224,
    swapoff: 225,
    perf_event_open: 241,
    name_to_handle_at: 264,
    open_by_handle_at: 265,
    setns: 268,
    process_vm_readv: 270,
    process_vm_writev: 271,
    finit_module: 273,
    bpf: 280,
    userfaultfd: 282,
    kexec_file_load: 294,
    ...UNIFIED_SYSCALLS,
  },
};

/** Node's `process.arch` to the seccomp architecture, or null where there is no filter. */
export function seccompArch(nodeArch: string = process.arch): SeccompArch | null {
  if (nodeArch === 'x64') return 'x86_64';
  if (nodeArch === 'arm64') return 'aarch64';
  return null;
}
