import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Content-addressed bytes under `<data root>/artifacts/blobs/<aa>/<sha256>`. Identical
 * bytes are stored once; a blob is written to a temp file and renamed, so a reader never
 * sees half a file; a blob whose bytes no longer match its name is refused on read.
 */
export class BlobStore {
  constructor(readonly root: string) {}

  pathOf(sha256: string): string {
    if (!HEX64.test(sha256)) throw new Error(`"${sha256}" is not a sha256 hex digest.`);
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  put(bytes: Buffer): { sha256: string; size: number } {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const target = this.pathOf(sha256);
    if (!fs.existsSync(target)) {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
      fs.writeFileSync(tmp, bytes, { mode: 0o600 });
      fs.renameSync(tmp, target);
    }
    return { sha256, size: bytes.byteLength };
  }

  read(sha256: string, maxBytes = Infinity): Buffer {
    const file = this.pathOf(sha256);
    if (maxBytes === Infinity) {
      const bytes = fs.readFileSync(file);
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
        throw new Error(`The stored blob ${file} does not match its hash; it was changed outside the app.`);
      }
      return bytes;
    }
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(maxBytes, fs.fstatSync(fd).size));
      fs.readSync(fd, buf, 0, buf.length, 0);
      return buf;
    } finally {
      fs.closeSync(fd);
    }
  }
}
