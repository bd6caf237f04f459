import { z } from 'zod';
import { AppError } from '../../../../src-preload/contract/errors';
import type { ArtifactProducer } from '../../../../src-preload/contract/artifacts';
import type { ToolContext, ToolOutput } from '../define';
import { WorkspaceNotFoundError, readWorkspaceFile } from '../../workspace/safeFs';
import type { ArtifactService } from '../../provenance/artifactService';
import { EVIDENCE_ID } from '../../records/ids';

const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

export const saveArtifactInput = z
  .object({
    path: z.string().min(1).max(512).describe('Workspace-relative path of the file to save, e.g. figures/insulin.png.'),
    name: z.string().min(1).max(512).optional().describe('Logical artifact path if different from path; saving the same name again makes a new version.'),
    mime: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/).max(100).optional(),
    input_evidence: z.array(z.string().regex(EVIDENCE_ID)).max(50).optional().describe('Evidence ids the file was made from.'),
  })
  .strict();

export const listArtifactsInput = z.object({}).strict();

/**
 * Reads a workspace file through safeFs (no symlink followed, no path reopened after a
 * check). A path that leaves the workspace throws safeFs's own refusal, which the
 * dispatcher answers as `refused` like every file tool; only "not found" gets a hint of
 * its own (save_artifact needs the file written first).
 */
export function readArtifactSource(workspace: string, rel: string): Buffer {
  try {
    return readWorkspaceFile(workspace, rel, {
      maxBytes: MAX_ARTIFACT_BYTES,
      tooBig: (size, r) => new AppError('invalid_input', `"${r}" is ${size} bytes, over the ${MAX_ARTIFACT_BYTES}-byte artifact limit.`),
    }).bytes;
  } catch (error) {
    if (error instanceof WorkspaceNotFoundError) throw new AppError('not_found', `No file "${rel}" in the session workspace; write it first (e.g. from a cell), then save it.`);
    throw error;
  }
}

/**
 * Tool specs for defineTool (capabilities/define.ts), run with the same ToolContext as every
 * tool. `artifactsOf` is called per call, so the store behind it can open lazily.
 */
export function artifactCapabilities(artifactsOf: () => ArtifactService) {
  return {
    save_artifact: {
      name: 'save_artifact',
      description:
        'Save a workspace file as a versioned, content-addressed artifact with its provenance (producing cell, kernel environment, input evidence). Returns the version id and its evidence_id.',
      input: saveArtifactInput,
      sideEffect: 'write' as const,
      defaultPolicy: 'allow' as const,
      hostMethods: ['save_artifact'],
      resourceKeys: (a: z.output<typeof saveArtifactInput>) => [`file:${a.path}`, `artifact:${a.name ?? a.path}`],
      target: (a: z.output<typeof saveArtifactInput>) => a.name ?? a.path,
      execute: async (a: z.output<typeof saveArtifactInput>, ctx: ToolContext): Promise<ToolOutput> => {
        const bytes = readArtifactSource(ctx.workspace, a.path);
        // From a cell without the calling cell named, the producer is the host call, and the
        // environment is recorded as unknown with that reason (never guessed).
        const producer: ArtifactProducer = ctx.cell
          ? { kind: 'cell', ...ctx.cell }
          : { kind: 'tool', tool: ctx.origin === 'cell' ? 'host.save_artifact (calling cell not identified)' : 'save_artifact', runId: ctx.runId };
        const v = await artifactsOf().save({
          sessionId: ctx.sessionId,
          path: a.name ?? a.path,
          bytes,
          producer,
          ...(a.mime ? { mime: a.mime } : {}),
          ...(a.input_evidence ? { inputEvidence: a.input_evidence } : {}),
        });
        const text = JSON.stringify({ version_id: v.id, artifact_id: v.artifactId, path: v.path, version: v.number, sha256: v.sha256, size: v.size, evidence_id: v.evidenceId });
        return { text, output: v };
      },
    },
    list_artifacts: {
      name: 'list_artifacts',
      description: "List this session's artifacts with their latest version, size and evidence id.",
      input: listArtifactsInput,
      sideEffect: 'read' as const,
      // Offered on demand (find_tools): kept out of the first request.
      onDemand: true,
      defaultPolicy: 'allow' as const,
      hostMethods: ['list_artifacts'],
      resourceKeys: () => [],
      target: () => 'artifacts',
      execute: async (_a: unknown, ctx: ToolContext): Promise<ToolOutput> => {
        const list = artifactsOf().list(ctx.sessionId);
        const text = JSON.stringify(
          list.map((s) => ({ artifact_id: s.id, path: s.path, versions: s.versions, latest_version_id: s.latest.id, sha256: s.latest.sha256, size: s.latest.size, evidence_id: s.latest.evidenceId })),
        );
        return { text, output: list };
      },
    },
  };
}
