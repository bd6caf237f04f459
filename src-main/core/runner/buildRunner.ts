import type { Core } from '../core';
import { finalizeTool } from '../engine/finalizeTool';
import { buildSystemPrompt } from '../engine/systemPrompt';
import { createModel } from '../llm/model';
import { defaultProviderId } from '../config/providers';
import { kernelPort } from './kernelCells';
import { recordingExecutor, recordingKernel } from './recording';
import { SessionRunner } from './sessionRunner';
import { unavailableToolsExecutor } from './unavailableTools';

/** Wires the session runner to the core's ledger, providers, kernels and event bus. */
export function buildSessionRunner(core: Core): SessionRunner {
  const { config } = core;
  return new SessionRunner({
    ledger: core.ledger,
    createModel: (provider, model) =>
      createModel(provider ?? defaultProviderId(config.env), {
        env: config.env,
        ...(model ? { model } : {}),
        ...(config.settingsKey ? { settingsKey: config.settingsKey } : {}),
      }),
    executor: recordingExecutor(core.ledger, unavailableToolsExecutor, () => 'none'),
    kernel: recordingKernel(core.ledger, kernelPort(core.kernels)),
    // The evidence store arrives with the science issue; until then no id exists.
    evidence: { missing: (ids) => [...ids] },
    tools: () => [finalizeTool()],
    systemPrompt: () => buildSystemPrompt({ date: new Date().toISOString().slice(0, 10), languages: ['python', 'r'] }),
    publish: (event) => core.events.emit('session.stream', event),
  });
}
