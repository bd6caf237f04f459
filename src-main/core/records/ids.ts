import { hash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, no padding: short ids that survive URLs, files and copy-paste. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** 16 base32 letters = 80 bits of a SHA-256: collisions are not a practical concern per session. */
export function stableId(prefix: string, ...parts: string[]): string {
  // The SHA-256 of every part followed by a NUL, in one call (every user cell makes one of these ids).
  let text = '';
  for (const p of parts) text += `${p}\0`;
  return `${prefix}${base32(hash('sha256', text, 'buffer').subarray(0, 10))}`;
}

export function randomId(prefix: string): string {
  return `${prefix}${base32(randomBytes(10))}`;
}

export const EVIDENCE_ID = /^ev_[a-z2-7]{16}$/;
