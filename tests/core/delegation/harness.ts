import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionStreamEvent } from '../../../src-preload/contract/sessions';
import { Host } from '../../../src-main/core/capabilities/host';
import { DelegationService, type ChildKernel } from '../../../src-main/core/delegation/service';
import type { DelegationLimits } from '../../../src-main/core/delegation/limits';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';
import type { KernelPort } from '../../../src-main/core/engine/ports';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import type { LanguageModelPort, LlmMessage, LlmRequest, Part } from '../../../src-main/core/llm/types';
import { SessionRunner } from '../../../src-main/core/runner/sessionRunner';
import { finish, toolCall } from '../../support/mockModel';

/** Who is asking the model: the user's run (depth 0) or a child at its depth. */
export interface Asker {
  depth: number;
  /** The child's task (its first user message); the user's message for depth 0. */
  task: string;
  request: LlmRequest;
  /** The tool results so far, oldest first. */
  tools: Extract<LlmMessage, { role: 'tool' }>[];
}

export type Reply = (asker: Asker) => Part[] | Promise<Part[]>;

/** The depth an agent is at, read from its system prompt (the child preamble names it). */
export function depthOf(system: string | undefined): number {
  const m = /\((\d) of \d\)|depth (\d) of \d/.exec(system ?? '');
  return m ? Number(m[1] ?? m[2]) : 0;
}

/** A zero-latency in-memory model answering each request from who asks and what it has seen. */
export class RoutedModel implements LanguageModelPort {
  readonly providerId = 'mock';
  readonly model = 'routed';
  readonly baseUrl = 'memory://routed';
  calls = 0;
  constructor(private readonly reply: Reply) {}
  async *stream(request: LlmRequest): AsyncIterable<Part> {
    this.calls++;
    const tools = request.messages.filter((m): m is Extract<LlmMessage, { role: 'tool' }> => m.role === 'tool');
    const first = request.messages.find((m) => m.role === 'user');
    const parts = await this.reply({ depth: depthOf(request.system), task: first?.content ?? '', request, tools });
    for (const part of parts) {
      if (request.signal?.aborted) {
        yield finish('aborted');
        return;
      }
      yield part;
    }
  }
}

export const call = (name: string, args: unknown, id = `${name}-${Math.random().toString(36).slice(2, 10)}`): Part[] => [...toolCall(id, name, args), finish('tool-calls')];

/** The child ids a delegate_task result names, in order. */
export const childIds = (content: string): string[] => [...content.matchAll(/child ([0-9a-f-]{36}) \[/g)].map((m) => m[1]!);

/** A kernel that never runs anything (children of these tests use tools only, unless a test passes its own). */
const noKernel: ChildKernel = { executeCell: async () => ({ ok: false, summary: 'no kernel in this test' }) };

export interface Harness {
  dir: string;
  ledger: Ledger;
  runner: SessionRunner;
  service: DelegationService;
  model: RoutedModel;
  liveRuns: LiveRuns;
  published: SessionStreamEvent[];
  close(): Promise<void>;
}

/**
 * The real session runner, host (registry, dispatcher, audit) and delegation service over
 * a temp ledger, with a routed in-memory model: the delegation tools run exactly as in the
 * app, through the dispatcher, from the model's tool calls.
 */
export function delegationHarness(options: { reply: Reply; limits?: Partial<DelegationLimits>; kernelFor?: (sessionId: string, runId: string) => ChildKernel; rootKernel?: KernelPort }): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-delegation-'));
  const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  const liveRuns = new LiveRuns();
  const model = new RoutedModel(options.reply);
  const published: SessionStreamEvent[] = [];
  // eslint-disable-next-line prefer-const -- the host's port reads it lazily, after construction
  let service: DelegationService;
  const host = new Host({ dataDir: dir, env: {}, ledger: () => ledger, workspaceFor: (s) => path.join(dir, 'workspaces', s), liveRuns, delegation: () => service });
  const runner = new SessionRunner({
    ledger,
    createModel: () => model,
    executor: host.executor,
    kernel: options.rootKernel ?? noKernel,
    evidenceFor: () => ({ missing: () => [] }),
    tools: (runId) => host.llmTools(runId),
    systemPrompt: () => 'system',
    liveRuns,
    publish: (e) => published.push(e),
    onRunEnd: (_s, runId) => host.endRun(runId),
    streamSliceMs: 0,
  });
  service = new DelegationService({
    ledger: () => ledger,
    liveRuns,
    executor: host.executor,
    kernelFor: options.kernelFor ?? (() => noKernel),
    evidenceFor: () => ({ missing: () => [] }),
    tools: (runId) => host.llmTools(runId),
    systemPrompt: () => 'system',
    append: (sessionId, runId, chunk) => runner.append(sessionId, runId, chunk),
    onRunEnd: (_s, runId) => host.endRun(runId),
    streamSliceMs: 0,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return {
    dir,
    ledger,
    runner,
    service,
    model,
    liveRuns,
    published,
    async close() {
      await runner.close();
      await service.close();
      ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one user message to its end and returns its record. */
export async function runMessage(h: Harness, sessionId: string, message: string, extra: { delegation?: boolean } = {}) {
  const run = h.runner.submit({ sessionId, mutationId: `m-${Math.random()}`, message, ...extra });
  return h.runner.result(run.id);
}
