/**
 * Which names an export may contain. The verifier never extracts, but whoever unpacks a
 * package after `verify` said ok will: a name that climbs out of the target folder, is
 * absolute, uses Windows separators or drive letters, or hides control characters must
 * be refused here, or `ok` would vouch for a package that writes outside its folder.
 */

const MAX_NAME_CHARS = 1024;

/** Why a name (zip entry or manifest path) is unsafe, or null when it is fine. */
export function unsafeNameReason(name: string): string | null {
  if (!name) return 'the name is empty';
  if (name.length > MAX_NAME_CHARS) return `the name is longer than ${MAX_NAME_CHARS} characters`;
  if (name.includes('\0')) return 'the name contains a NUL byte';
  // C0 controls, DEL and C1 controls: invisible in listings, some are terminal escapes.
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f))) return 'the name contains a control character';
  // Bidi overrides and zero-width characters make a listing show another name than the file's.
  if (/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u.test(name)) return 'the name contains an invisible or text-direction character';
  if (name.includes('\\')) return 'the name contains a backslash (a path separator on Windows)';
  if (name.startsWith('/')) return 'the name is an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'the name starts with a drive letter';
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.some((s) => s === '..')) return 'the name has a ".." segment';
  if (segments.some((s) => s === '.')) return 'the name has a "." segment';
  if (segments.some((s) => s === '')) return 'the name has an empty segment ("//")';
  return null;
}

/**
 * The key two names collide under on a case-insensitive or normalising file system
 * (macOS, Windows): `README.md` and `readme.md`, or NFC and NFD spellings, are one file
 * there, so a package holding both would be extracted as whichever comes last.
 */
export function collisionKey(name: string): string {
  return name.replace(/\/$/, '').normalize('NFC').toLowerCase();
}

/** Every folder a name lives in: `a/b/c` -> `a`, `a/b`. */
export function parentFolders(name: string): string[] {
  const segments = name.replace(/\/$/, '').split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}
