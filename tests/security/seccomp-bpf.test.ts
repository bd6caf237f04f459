import { describe, expect, it } from 'vitest';
import { encodeProgram } from '../../src-main/core/kernel/seccomp/bpf';
import { DENIED_SYSCALLS, seccompProgram } from '../../src-main/core/kernel/seccomp/filter';
import { AUDIT_ARCH, SYSCALLS, type SeccompArch } from '../../src-main/core/kernel/seccomp/syscalls';

// Issue 13, item 6: the filter bwrap loads is generated in TypeScript. This file runs the
// encoded program (the bytes bwrap receives) in a small classic-BPF interpreter written
// here, independent of the generator, on seccomp_data records it builds itself.

const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const errno = (n: number) => 0x00050000 | n;
const EPERM = errno(1);
const ENOSYS = errno(38);

/** struct seccomp_data: nr, arch, instruction_pointer, args[6] (64-bit, little-endian). */
function seccompData(arch: number, nr: number, args: bigint[] = []): Buffer {
  const buf = Buffer.alloc(64);
  buf.writeInt32LE(nr | 0, 0);
  buf.writeUInt32LE(arch >>> 0, 4);
  for (let i = 0; i < 6; i++) buf.writeBigUInt64LE(args[i] ?? 0n, 16 + 8 * i);
  return buf;
}

/** Runs a classic-BPF program (only the opcodes a seccomp filter may use here). */
function run(program: Buffer, data: Buffer): number {
  let a = 0;
  let pc = 0;
  for (let steps = 0; steps < 10_000; steps++) {
    if (pc * 8 >= program.length) throw new Error('fell off the end of the program');
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    pc++;
    switch (code) {
      case 0x20: // ld [k]
        if (k % 4 !== 0 || k + 4 > data.length) throw new Error(`bad load offset ${k}`);
        a = data.readUInt32LE(k);
        break;
      case 0x15: // jeq #k
        pc += a === k ? jt : jf;
        break;
      case 0x45: // jset #k
        pc += (a & k) >>> 0 ? jt : jf;
        break;
      case 0x35: // jge #k
        pc += a >= k ? jt : jf;
        break;
      case 0x05: // ja
        pc += k;
        break;
      case 0x06: // ret #k
        return k >>> 0;
      default:
        throw new Error(`unexpected opcode 0x${code.toString(16)}`);
    }
  }
  throw new Error('no return');
}

const CLONE_NEWUSER = 0x10000000n;
const CLONE_NEWNS = 0x00020000n;
const CLONE_NEWNET = 0x40000000n;
/** What glibc's pthread_create passes to clone: no namespace flag. */
const THREAD_FLAGS = 0x3d0f00n;

for (const arch of ['x86_64', 'aarch64'] as SeccompArch[]) {
  describe(`seccomp filter for ${arch}`, () => {
    const program = encodeProgram(seccompProgram(arch));
    const table = SYSCALLS[arch];
    const call = (name: string, args: bigint[] = []) => run(program, seccompData(AUDIT_ARCH[arch], table[name]!, args));

    it('kills a process that calls through a foreign architecture', () => {
      const foreign = arch === 'x86_64' ? 0x40000003 /* i386 */ : AUDIT_ARCH.x86_64;
      expect(run(program, seccompData(foreign, 0))).toBe(RET_KILL_PROCESS);
      expect(run(program, seccompData(foreign, table.ptrace!))).toBe(RET_KILL_PROCESS);
    });

    it('returns EPERM for every denied call that exists on the architecture', () => {
      const present = DENIED_SYSCALLS.filter((n) => table[n] !== undefined);
      expect(present).toEqual(expect.arrayContaining(['ptrace', 'process_vm_readv', 'process_vm_writev', 'io_uring_setup', 'unshare', 'setns', 'mount', 'bpf', 'keyctl']));
      for (const name of present) expect(call(name), name).toBe(EPERM);
    });

    it('returns ENOSYS for clone3 (glibc then uses clone, whose flags a filter can read)', () => {
      expect(call('clone3')).toBe(ENOSYS);
    });

    it('refuses clone with namespace flags but allows threads and fork', () => {
      expect(call('clone', [CLONE_NEWUSER])).toBe(EPERM);
      expect(call('clone', [CLONE_NEWNS | 17n])).toBe(EPERM);
      expect(call('clone', [CLONE_NEWNET])).toBe(EPERM);
      expect(call('clone', [THREAD_FLAGS])).toBe(RET_ALLOW);
      expect(call('clone', [17n /* SIGCHLD: fork */])).toBe(RET_ALLOW);
    });

    it('allows personality only for the default and the query', () => {
      expect(call('personality', [0n])).toBe(RET_ALLOW);
      expect(call('personality', [0xffffffffn])).toBe(RET_ALLOW);
      expect(call('personality', [0x0040000n /* ADDR_NO_RANDOMIZE */])).toBe(EPERM);
    });

    it('refuses TIOCSTI and TIOCLINUX, even with high bits set, and allows other ioctls', () => {
      expect(call('ioctl', [0n, 0x5412n])).toBe(EPERM);
      expect(call('ioctl', [0n, 0x1_0000_5412n])).toBe(EPERM);
      expect(call('ioctl', [0n, 0x541cn])).toBe(EPERM);
      expect(call('ioctl', [0n, 0x5401n /* TCGETS */])).toBe(RET_ALLOW);
    });

    it('allows ordinary calls (read, write, openat, mmap)', () => {
      const ordinary = arch === 'x86_64' ? [0, 1, 257, 9] : [63, 64, 56, 222];
      for (const nr of ordinary) expect(run(program, seccompData(AUDIT_ARCH[arch], nr))).toBe(RET_ALLOW);
    });

    if (arch === 'x86_64') {
      it('refuses x32 system calls (the x32 bit on an otherwise allowed number)', () => {
        expect(run(program, seccompData(AUDIT_ARCH.x86_64, 0x40000000 | 0))).toBe(EPERM);
        expect(run(program, seccompData(AUDIT_ARCH.x86_64, 0x40000000 | 101))).toBe(EPERM);
      });
    }
  });
}
