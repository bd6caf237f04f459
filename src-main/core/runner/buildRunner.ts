import type { Core } from '../core';
import { sessionLookup } from './sessionLookup';
import { buildSystemPrompt } from '../engine/systemPrompt';
import { createModel } from '../llm/model';
import { defaultProviderId } from '../config/providers';
import { CELL_LIMIT_HINT, resolveCellTimeoutMs } from '../config/cellLimit';
import { kernelPort } from './kernelCells';
import type { CellProtocol } from './cellProtocol';
import { recordingKernel } from './recording';
import { SessionRunner } from './sessionRunner';

/** The limit chosen in Settings, if any (an unreadable settings table leaves the default). */
function storedCellTimeout(core: Core): number | null {
  try {
    return core.settings.read().cellTimeoutS ?? null;
  } catch {
    return null;
  }
}

/**
 * Wires the session runner to the core's ledger, providers, kernels, host (tools,
 * permissions, approvals), evidence and event bus.
 */
export function buildSessionRunner(core: Core, cells: CellProtocol): SessionRunner {
  const { config } = core;
  const runner = new SessionRunner({
    ledger: core.ledger,
    createModel: (provider, model, sessionId) => {
      const env = core.envFor(sessionId);
      return createModel(provider ?? defaultProviderId(env), {
        env,
        ...(model ? { model } : {}),
        ...(config.settingsKey ? { settingsKey: config.settingsKey } : {}),
      });
    },
    // The host's executor records each batch as an action group, with targets and decisions.
    executor: core.host.executor,
    kernel: recordingKernel(
      core.ledger,
      kernelPort(core.kernels, {
        provenance: () => core.provenance,
        takeSubmitted: (sessionId, cellId) => cells.takeSubmitted(sessionId, cellId),
        cellTimeoutMs: (sessionId) => resolveCellTimeoutMs(core.envFor(sessionId), storedCellTimeout(core)),
        timeLimitHint: CELL_LIMIT_HINT,
      }),
    ),
    evidenceFor: (sessionId) => sessionLookup(() => core.provenance, sessionId),
    tools: () => core.host.llmTools(),
    systemPrompt: () => buildSystemPrompt({ date: new Date().toISOString().slice(0, 10), languages: ['python', 'r'] }),
    publish: (event) => core.events.emit('session.stream', event),
    // Per-run state elsewhere (audit turns, the ledger's run cache, an untaken submission) ends with the run.
    onRunEnd: (sessionId, runId) => {
      core.host.endRun(runId);
      core.ledger.events.forgetRun(runId);
      cells.endSession(sessionId);
    },
  });
  // Host calls from a running cell are audited under its run and shown in its stream.
  core.host.bindRuns({
    runOf: (sessionId) => runner.live(sessionId)?.runId ?? null,
    emitOf: (sessionId) => runner.live(sessionId)?.emit,
  });
  return runner;
}
