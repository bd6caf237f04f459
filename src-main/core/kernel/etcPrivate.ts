import fs from 'node:fs';
import path from 'node:path';

/**
 * What of /etc a user who is not its owner may not read: SSH host keys, shadow passwords,
 * the munge key, private TLS keys, a database's access rules. The kernel binds /etc
 * read-only (the loader and BLAS need it); a kernel of an app run as root would read all
 * of these as their owner, so each is hidden: a file behind an empty, unreadable node, a
 * folder behind an empty tmpfs. Only what is unreadable to everyone else is hidden, so a
 * kernel of a normal user sees the same /etc as before.
 */
export interface EtcPrivate {
  files: string[];
  dirs: string[];
}

const MAX_ENTRIES = 20_000;
let cached: { root: string; value: EtcPrivate } | null = null;

/** The private entries under `root` (walked once per process; /etc does not change under a running app in ways that matter here). */
export function etcPrivate(root = '/etc'): EtcPrivate {
  if (cached?.root === root) return cached.value;
  const value: EtcPrivate = { files: [], dirs: [] };
  let seen = 0;
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      // Unlistable (and so hidden already by its parent's check), or gone.
      return;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) return;
      const full = path.join(dir, name);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(full);
      } catch {
        continue;
      }
      // A symlink names another place: what it points to under /etc is checked itself.
      if (st.isSymbolicLink()) continue;
      const othersRead = (st.mode & 0o004) !== 0;
      if (st.isDirectory()) {
        const othersEnter = (st.mode & 0o001) !== 0;
        if (!othersRead || !othersEnter) value.dirs.push(full);
        else walk(full);
      } else if (st.isFile() && !othersRead) {
        value.files.push(full);
      }
    }
  };
  walk(root);
  cached = { root, value };
  return value;
}

/** bwrap arguments hiding them (after /etc is bound). */
export function etcPrivateArgs(p: EtcPrivate): string[] {
  const args: string[] = [];
  // An empty folder hides as well as an unreadable one (and --perms is not in every bwrap).
  for (const dir of p.dirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of p.files) args.push('--ro-bind', '/dev/null', file);
  return args;
}
