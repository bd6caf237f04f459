/**
 * A tiny classic-BPF assembler: just the instructions a seccomp filter needs, with
 * symbolic labels resolved to the 8-bit forward offsets the kernel expects, encoded as
 * `struct sock_filter` (u16 code, u8 jt, u8 jf, u32 k, little-endian: both supported
 * architectures are little-endian), which is what `bwrap --seccomp FD` reads.
 */

export const BPF = {
  LD_W_ABS: 0x20,
  JMP_JA: 0x05,
  JMP_JEQ_K: 0x15,
  JMP_JGE_K: 0x35,
  JMP_JSET_K: 0x45,
  RET_K: 0x06,
} as const;

export const SECCOMP_RET = {
  KILL_PROCESS: 0x80000000,
  ERRNO: 0x00050000,
  ALLOW: 0x7fff0000,
} as const;

/** `struct seccomp_data` offsets. */
export const SECCOMP_DATA = {
  nr: 0,
  arch: 4,
  /** Low 32 bits of argument i (little-endian). */
  argLow: (i: number) => 16 + 8 * i,
} as const;

export interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

type Target = string | null; // a label, or null for "the next instruction"

type Pending =
  | { kind: 'label'; name: string }
  | { kind: 'op'; code: number; k: number; jt?: Target; jf?: Target };

export class Assembler {
  private items: Pending[] = [];

  label(name: string): this {
    this.items.push({ kind: 'label', name });
    return this;
  }

  load(offset: number): this {
    this.items.push({ kind: 'op', code: BPF.LD_W_ABS, k: offset });
    return this;
  }

  /** Jump to `jt` when A == k, else to `jf` (null: fall through). */
  jeq(k: number, jt: Target, jf: Target = null): this {
    this.items.push({ kind: 'op', code: BPF.JMP_JEQ_K, k: k >>> 0, jt, jf });
    return this;
  }

  /** Jump to `jt` when A & k is not zero, else to `jf`. */
  jset(k: number, jt: Target, jf: Target = null): this {
    this.items.push({ kind: 'op', code: BPF.JMP_JSET_K, k: k >>> 0, jt, jf });
    return this;
  }

  ret(value: number): this {
    this.items.push({ kind: 'op', code: BPF.RET_K, k: value >>> 0 });
    return this;
  }

  assemble(): Instruction[] {
    const labels = new Map<string, number>();
    let pc = 0;
    for (const item of this.items) {
      if (item.kind === 'label') {
        if (labels.has(item.name)) throw new Error(`seccomp assembler: label ${item.name} defined twice`);
        labels.set(item.name, pc);
      } else pc++;
    }
    const out: Instruction[] = [];
    const offset = (from: number, target: Target | undefined): number => {
      if (target === null || target === undefined) return 0;
      const at = labels.get(target);
      if (at === undefined) throw new Error(`seccomp assembler: unknown label ${target}`);
      const delta = at - from - 1;
      if (delta < 0 || delta > 255) throw new Error(`seccomp assembler: jump to ${target} out of range (${delta})`);
      return delta;
    };
    for (const item of this.items) {
      if (item.kind === 'label') continue;
      const here = out.length;
      out.push({ code: item.code, jt: offset(here, item.jt), jf: offset(here, item.jf), k: item.k });
    }
    if (out.length > 4096) throw new Error('seccomp assembler: program longer than BPF_MAXINSNS');
    return out;
  }
}

export function encodeProgram(program: readonly Instruction[]): Buffer {
  const buf = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    buf.writeUInt16LE(ins.code, i * 8);
    buf.writeUInt8(ins.jt, i * 8 + 2);
    buf.writeUInt8(ins.jf, i * 8 + 3);
    buf.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return buf;
}
