import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { MANIFEST_FILE, buildManifest } from '../../src-main/core/export/manifest';
import { installationSigningKey } from '../../src-main/core/export/signing';

/**
 * A session package as `openai4s export` writes it (files, a manifest signed with the
 * installation key of `signerDataDir`, one zip), without running a session. `edit` changes
 * the zip's entries after the manifest was made, as someone editing the package would.
 */
export function writeSessionPackage(
  file: string,
  files: Record<string, string>,
  options: { signerDataDir: string; sessionId?: string; title?: string; edit?: (entries: Record<string, Uint8Array>) => void },
): string {
  fs.mkdirSync(options.signerDataDir, { recursive: true });
  const bytes = new Map(Object.entries(files).map(([p, text]) => [p, strToU8(text)]));
  const manifest = buildManifest(
    bytes,
    { createdAt: '2026-12-01T10:00:00.000Z', app: { name: 'openai4s-desktop', version: '0.1.0' }, session: { id: options.sessionId ?? 'ses_1', title: options.title ?? 'Insulin', createdAt: '2026-12-01T09:00:00.000Z' } },
    installationSigningKey(options.signerDataDir),
  );
  const entries: Record<string, Uint8Array> = { ...Object.fromEntries(bytes), [MANIFEST_FILE]: strToU8(JSON.stringify(manifest)) };
  options.edit?.(entries);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, zipSync(entries));
  return file;
}
