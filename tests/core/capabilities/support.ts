import { z } from 'zod';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../../../src-main/core/capabilities/permissions/approvals';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { defineTool, reasonField, type SideEffectClass } from '../../../src-main/core/capabilities/define';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';

/** An approval port that records each question and answers from a script (then the fallback). */
export function scriptedPort(answers: ApprovalAnswer[], fallback: ApprovalAnswer = 'deny'): ApprovalPort & { questions: ApprovalQuestion[] } {
  const questions: ApprovalQuestion[] = [];
  return {
    questions,
    ask: async (q) => {
      questions.push(q);
      return answers.shift() ?? fallback;
    },
  };
}

/** A tool that counts its executions (its effect is observable, so "not run" is checkable). */
/** Counts executions in flight across the tools sharing it (overlap shown without timing). */
export interface InFlight {
  now: number;
  max: number;
}

export function countingTool(name: string, sideEffect: SideEffectClass, defaultPolicy: 'allow' | 'ask' | 'deny', delayMs = 0, inFlight?: InFlight) {
  const runs: unknown[] = [];
  const tool = defineTool({
    name,
    description: `test tool ${name}`,
    input: z.object({ key: z.string(), reason: reasonField }).strict(),
    sideEffect,
    defaultPolicy,
    resourceKeys: (a) => [`k:${a.key}`],
    target: (a) => `target-${a.key}`,
    async execute(a) {
      runs.push(a);
      if (inFlight) inFlight.max = Math.max(inFlight.max, ++inFlight.now);
      try {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      } finally {
        if (inFlight) inFlight.now--;
      }
      return { text: `${name} ran on ${a.key}` };
    },
  });
  return { tool, runs };
}

export function memoryDispatcher(port: ApprovalPort, tools: ReturnType<typeof countingTool>['tool'][], now?: () => number) {
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  const rules = new MemoryRuleStore();
  const requests = new MemoryRequestStore();
  const audit = new MemoryAudit();
  const { policy, approvals } = createPermissionLayer({ rules, requests, port, ...(now ? { now } : {}) });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit });
  return { dispatcher, rules, requests, audit, policy, approvals, registry };
}

export const ctx = (over: Partial<Parameters<HostDispatcher['dispatch']>[2]> = {}) => ({
  origin: 'tool' as const,
  sessionId: 's1',
  runId: null,
  workspace: '/nonexistent',
  signal: new AbortController().signal,
  ...over,
});
