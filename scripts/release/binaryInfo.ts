/**
 * What a compiled file says about itself without running it: its format and CPU from the
 * header (ELF, Mach-O, PE), and for a Node addon the ABI it was built for.
 *
 * The ABI: an addon built against V8 directly (better-sqlite3 is one) registers itself
 * with the NODE_MODULE macros, which export a symbol named `node_register_module_v<N>`
 * where N is the NODE_MODULE_VERSION of the headers it was compiled with (Node 20: 115;
 * each Electron major has its own, in node_modules/electron/abi_version). The name is in
 * the file's dynamic symbol table as plain text, so reading it needs no loader. An N-API
 * addon exports `napi_register_module_v1` instead and runs under any ABI.
 */

export type Arch = 'x64' | 'arm64' | 'ia32' | 'armv7l';

export interface BinaryInfo {
  format: 'elf' | 'macho' | 'pe' | 'unknown';
  /** The CPUs the file is built for (two for a universal Mach-O). */
  arches: Arch[];
}

export interface AddonInfo extends BinaryInfo {
  /** NODE_MODULE_VERSION from the registration symbol, or null when there is none. */
  abi: number | null;
  napi: boolean;
}

const ELF_MACHINES: Record<number, Arch> = { 0x3e: 'x64', 0xb7: 'arm64', 0x03: 'ia32', 0x28: 'armv7l' };
const MACHO_CPUS: Record<number, Arch> = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x7: 'ia32', 0xc: 'armv7l' };
const PE_MACHINES: Record<number, Arch> = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'ia32' };

export function binaryInfo(bytes: Buffer): BinaryInfo {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const littleEndian = bytes[5] === 1;
    const machine = littleEndian ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
    return { format: 'elf', arches: ELF_MACHINES[machine] ? [ELF_MACHINES[machine]] : [] };
  }
  if (bytes.length >= 8 && (bytes.readUInt32LE(0) === 0xfeedfacf || bytes.readUInt32LE(0) === 0xfeedface)) {
    const cpu = MACHO_CPUS[bytes.readUInt32LE(4)];
    return { format: 'macho', arches: cpu ? [cpu] : [] };
  }
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xcafebabe) {
    // A universal (fat) Mach-O: big-endian count, then 20-byte records starting with the CPU type.
    const count = bytes.readUInt32BE(4);
    const arches: Arch[] = [];
    for (let i = 0; i < count && 8 + i * 20 + 4 <= bytes.length; i++) {
      const cpu = MACHO_CPUS[bytes.readUInt32BE(8 + i * 20)];
      if (cpu) arches.push(cpu);
    }
    return { format: 'macho', arches };
  }
  if (bytes.length >= 0x40 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.toString('latin1', pe, pe + 4) === 'PE\0\0') {
      const machine = PE_MACHINES[bytes.readUInt16LE(pe + 4)];
      return { format: 'pe', arches: machine ? [machine] : [] };
    }
  }
  return { format: 'unknown', arches: [] };
}

export function addonInfo(bytes: Buffer): AddonInfo {
  const text = bytes.toString('latin1');
  const match = /node_register_module_v(\d+)/.exec(text);
  return { ...binaryInfo(bytes), abi: match ? Number(match[1]) : null, napi: text.includes('napi_register_module_v1') };
}

/** The file format each platform's executables and addons use. */
export const PLATFORM_FORMAT: Record<string, BinaryInfo['format']> = { linux: 'elf', darwin: 'macho', win32: 'pe' };
