import type { KernelLanguage } from '../../../src-preload/contract/kernel';

/** Who is calling back from inside a cell: enough for permissions, approvals and audit. */
export interface HostCallContext {
  sessionId: string;
  language: KernelLanguage;
  generation: string;
  cellId: string;
  /** Host path of the session workspace (the cell sees it as its working directory). */
  workspace: string;
  /**
   * Aborted when the cell is interrupted or ends: a host call still waiting (an approval
   * question, a fetch) must not go on for a cell that no longer wants its answer.
   */
  signal?: AbortSignal;
  /** Set when the cell runs in a child agent's own kernel (issue 20): that child's run id. */
  owner?: string;
}

/**
 * The port the supervisor calls for each `host_call` frame of a cell. The host
 * dispatcher (permissions, approvals, audit) implements it; until then the default
 * answers every method with a clear "not available yet". A thrown error or a rejected
 * promise becomes `{error}` and raises HostError in the cell.
 */
export interface HostCallHandler {
  call(method: string, args: Record<string, unknown>, ctx: HostCallContext): Promise<unknown> | unknown;
}

/** The methods the worker SDK exposes; listed so the error can say what exists. */
export const KNOWN_HOST_METHODS = [
  'science.search',
  'save_artifact',
  'read_file',
  'write_file',
  'web_fetch',
  'llm',
  'submit_output',
] as const;

export class HostMethodUnavailableError extends Error {
  constructor(method: string) {
    const known = (KNOWN_HOST_METHODS as readonly string[]).includes(method) || method.startsWith('science.');
    super(
      known
        ? `host method "${method}" is not available yet in this build (the host dispatcher that serves it has not landed)`
        : `unknown host method "${method}"; the host offers ${KNOWN_HOST_METHODS.join(', ')}`,
    );
    this.name = 'HostMethodUnavailableError';
  }
}

/** The default port: nothing is wired yet, every method answers "not available yet". */
export const unavailableHostCalls: HostCallHandler = {
  call(method) {
    throw new HostMethodUnavailableError(method);
  },
};
