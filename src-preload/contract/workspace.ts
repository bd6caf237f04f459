import { z } from 'zod';
import { route } from './define';

const sessionId = z.string().min(1).max(200);

export interface ExportResult {
  /** Absolute path of the written zip (under `<data root>/exports`). */
  file: string;
  files: number;
  digest: string;
  /** Whether the OS file manager was asked to show it. */
  revealed: boolean;
}

export interface AttachResult {
  /** Workspace-relative path the file was written to (`uploads/<name>`). */
  path: string;
  bytes: number;
  sha256: string;
}

/** Largest file the composer may attach (base64 over IPC). */
export const MAX_ATTACH_BYTES = 25 * 1024 * 1024;

/**
 * A session's files: export it as a verifiable zip, attach a file into its workspace.
 * File names are a plain name (no folders, no dot-dot); bytes travel base64-encoded.
 */
export const workspaceRoutes = {
  'session.export': route<ExportResult>()(z.object({ sessionId, reveal: z.boolean().default(true) }).strict()),
  'workspace.attach': route<AttachResult>()(
    z
      .object({
        sessionId,
        name: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^[^/\\\0]+$/, 'a file name, without folders')
          .refine((n) => n !== '.' && n !== '..', 'a file name, not "." or ".."'),
        base64: z.string().max(Math.ceil((MAX_ATTACH_BYTES * 4) / 3) + 4, 'the file is larger than 25 MB'),
      })
      .strict(),
  ),
};
