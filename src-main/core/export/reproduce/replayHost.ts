import type { HostCallContext, HostCallHandler } from '../../kernel/hostCalls';
import { readWorkspaceFile, writeWorkspaceFile } from '../../workspace/safeFs';
import { canonicalJson } from '../manifest';
import type { RecordedHostCall } from '../reproducePackage';

/**
 * The host of a reproduction: every host call of a replayed cell is answered from the
 * package's recorded answers (reproduce/host_calls.jsonl), never from the network. The
 * same rules as the package's openai4s_host.py: the recorded call with the same method
 * and arguments, in the session's order (a cell run twice gets the same answer again); a
 * request the session never made fails in the cell with its name.
 *
 * `save_artifact` also keeps the bytes the cell saved, read from the workspace at that
 * moment (as the app does), so the report compares them with the recorded version.
 */

/** Host methods whose recorded capability is not the method with "." -> "_" (see the tools' hostMethods). */
const ALIASES: Record<string, readonly string[]> = {
  read_file: ['read_text_file'],
  'skills.search': ['search_skills'],
  'skills.load': ['load_skill'],
  'skills.read_file': ['read_skill_file'],
};

/** What a replayed cell saved with host.save_artifact: the recorded call it matched and the bytes. */
export interface ReplaySave {
  /** Index of the recorded call in host_calls.jsonl. */
  call: number;
  path: string;
  /** Null when the file was not in the workspace when the cell saved it. */
  bytes: Uint8Array | null;
  /** Why the bytes could not be read. */
  unreadable?: string;
}

const canonical = (value: unknown): string => {
  try {
    return canonicalJson(value ?? {});
  } catch {
    // Non-integer numbers: the plain JSON text is still a fine key for equal requests.
    return JSON.stringify(value ?? {});
  }
};

export class ReplayHost implements HostCallHandler {
  private readonly used: boolean[];
  readonly saves: ReplaySave[] = [];
  /** Requests no recorded answer matched: named in the report. */
  readonly unanswered: { method: string; arguments: Record<string, unknown> }[] = [];

  constructor(private readonly calls: readonly RecordedHostCall[]) {
    this.used = calls.map(() => false);
  }

  private find(method: string, args: Record<string, unknown>): number | null {
    const names = new Set([method, method.replaceAll('.', '_'), ...(ALIASES[method] ?? [])]);
    const wanted = canonical(args);
    let again: number | null = null;
    for (const [i, call] of this.calls.entries()) {
      if (!names.has(call.method) || canonical(call.arguments) !== wanted) continue;
      if (!this.used[i]) return i;
      again ??= i;
    }
    return again;
  }

  call(method: string, args: Record<string, unknown>, ctx: HostCallContext): unknown {
    if (method === 'submit_output') return { text: 'submit_output is a no-op in a reproduction', output: null };
    if (method === 'write_file' && typeof args.path === 'string' && typeof args.content === 'string') writeWorkspaceFile(ctx.workspace, args.path, Buffer.from(args.content, 'utf8'));
    const i = this.find(method, args);
    if (i === null) {
      this.unanswered.push({ method, arguments: args });
      throw new Error(`${method}(${canonical(args)}): no recorded answer in this package; a reproduction answers only the requests the session made`);
    }
    this.used[i] = true;
    const call = this.calls[i]!;
    if (method === 'save_artifact' && typeof args.path === 'string') this.keepSave(i, args.path, ctx.workspace);
    if (call.status !== 'ok') throw new Error(call.text || `${method} failed in the session`);
    return { text: call.text, ...(call.output === undefined ? {} : { output: structuredClone(call.output) }) };
  }

  private keepSave(call: number, rel: string, workspace: string): void {
    try {
      this.saves.push({ call, path: rel, bytes: readWorkspaceFile(workspace, rel).bytes });
    } catch (error) {
      this.saves.push({ call, path: rel, bytes: null, unreadable: (error as Error).message });
    }
  }
}
