/**
 * Names inside a session workspace that cells and tools must never write. Each one is
 * something another program executes or trusts when the user later opens the workspace
 * (git hooks and config, editor tasks and settings, agent configs with hooks, shell rc
 * files, dotenv files read by tooling). The kernel sandbox mounts them read-only at the
 * workspace root; the host-side file operations refuse them at any depth. The list is
 * documented in `kernel-workers/README.md`; extend both together.
 */

/** Folders: nothing inside may be written. */
export const PROTECTED_DIRS: readonly string[] = ['.git', '.vscode', '.idea', '.cursor', '.claude', '.devcontainer', '.github'];

/** Files: may not be created, replaced or changed. */
export const PROTECTED_FILES: readonly string[] = [
  '.env',
  '.envrc',
  '.mcp.json',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.inputrc',
  '.gitconfig',
  '.gitattributes',
  '.gitmodules',
  '.npmrc',
  '.pythonrc',
  '.Rprofile',
  '.Renviron',
];

const dirSet = new Set(PROTECTED_DIRS.map((n) => n.toLowerCase()));
const fileSet = new Set(PROTECTED_FILES.map((n) => n.toLowerCase()));

/** Whether a name at the workspace root is one of the protected names (exactly as listed). */
export function isProtectedRootName(name: string): boolean {
  return PROTECTED_DIRS.includes(name) || PROTECTED_FILES.includes(name);
}

/** Variants dotenv loaders read too (.env.local, .env.production, .env.development.local); templates stay writable. */
function isDotenvVariant(name: string): boolean {
  const m = /^\.env\.([a-z0-9_-]+)(\.local)?$/.exec(name);
  return m !== null && !['example', 'sample', 'template', 'dist'].includes(m[1]!);
}

/**
 * Why a workspace-relative path (forward slashes, already normalised) may not be
 * written, or null when it may. Case-insensitive, because macOS and Windows file
 * systems usually are.
 */
export function protectedReason(rel: string): string | null {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!.toLowerCase();
    if (dirSet.has(name)) {
      return `"${parts.slice(0, i + 1).join('/')}" is a protected folder (tools that open the workspace execute what is in it); write somewhere else`;
    }
    if (i === parts.length - 1 && (fileSet.has(name) || isDotenvVariant(name))) {
      return `"${parts[i]}" is a protected file (other tools read or execute it when the workspace is opened); write somewhere else`;
    }
    // Name variants that a file system may fold onto a protected name (".env " or ".env.").
    const trimmed = name.replace(/[. ]+$/, '');
    if (trimmed !== name && (dirSet.has(trimmed) || (i === parts.length - 1 && fileSet.has(trimmed)))) {
      return `"${parts[i]}" resolves to a protected name on some file systems; write somewhere else`;
    }
  }
  return null;
}
