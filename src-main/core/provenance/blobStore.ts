import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * A file handed to the store whole: moved in (`move`: the caller gives it up, as harvest
 * does with its own download folder), or copied (`copy`: a file that stays someone else's,
 * such as a job folder's output on this machine). Never hard-linked: a blob must not share
 * an inode with a file someone may later write in place, or the artifact's bytes would
 * change under its hash and be lost.
 */
export interface BlobFileSource {
  path: string;
  how: 'copy' | 'move';
  /**
   * The file as the caller opened and checked it: what lands in the store must be that
   * inode (a name swapped meanwhile is never stored); copies are made from this descriptor.
   */
  opened: { fd: number; stat: fs.Stats };
}

/** Errors of rename that mean "not on this disk" or "not allowed here": the bytes are copied instead. */
const CANNOT_PLACE = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'EACCES']);

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

  /**
   * Stores a file: `move` renames it to a temp name beside the blobs (no copy), checked to
   * be the inode the caller opened; `copy`, a rename the disk refuses, or a name swapped
   * meanwhile copies the opened bytes from the caller's descriptor. Hashed there in chunks
   * and renamed to its address; bytes already stored under that hash are kept and the temp
   * name dropped.
   */
  putFile(source: BlobFileSource): { sha256: string; size: number } {
    fs.mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const tmp = path.join(this.root, `.incoming-${process.pid}-${randomBytes(8).toString('hex')}.tmp`);
    const { dev, ino } = source.opened.stat;
    let moved = false;
    /** A move the disk refused: the source is dropped once its bytes are copied in. */
    let dropSource = false;
    if (source.how === 'move') {
      try {
        fs.renameSync(source.path, tmp);
        moved = true;
        const now = fs.lstatSync(tmp);
        if (now.dev !== dev || now.ino !== ino) {
          // Another file answered to that name: put it back untouched and copy what was opened.
          fs.renameSync(tmp, source.path);
          moved = false;
        }
      } catch (error) {
        if (moved || !CANNOT_PLACE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        dropSource = true;
      }
    }
    try {
      if (!moved) copyFromDescriptor(source.opened.fd, tmp);
      fs.chmodSync(tmp, 0o600);
      const { sha256, size } = hashFile(tmp);
      const target = this.pathOf(sha256);
      if (fs.existsSync(target)) fs.unlinkSync(tmp);
      else {
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        fs.renameSync(tmp, target);
      }
      if (dropSource) fs.rmSync(source.path, { force: true });
      return { sha256, size };
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      throw error;
    }
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

const CHUNK = 1024 * 1024;

/** A file's sha256 and size, read in chunks (a 1 GB output is never held in memory). */
function hashFile(file: string): { sha256: string; size: number } {
  const fd = fs.openSync(file, 'r');
  try {
    const hash = createHash('sha256');
    const buf = Buffer.alloc(CHUNK);
    let size = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, size);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      size += n;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies an open file from its start into a new file at `dest`. */
function copyFromDescriptor(fd: number, dest: string): void {
  const out = fs.openSync(dest, 'wx', 0o600);
  try {
    const buf = Buffer.alloc(CHUNK);
    for (let at = 0; ; ) {
      const n = fs.readSync(fd, buf, 0, CHUNK, at);
      if (n === 0) break;
      for (let w = 0; w < n; ) w += fs.writeSync(out, buf, w, n - w);
      at += n;
    }
  } finally {
    fs.closeSync(out);
  }
}
