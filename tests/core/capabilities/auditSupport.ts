import type { AuditCall, AuditOutcome } from '../../../src-main/core/capabilities/audit';

/** A cell's host call as the dispatcher hands it to the audit (`read_note` of `key`). */
export const cellCall = (sessionId: string, runId: string, key: string, sideEffect: AuditCall['sideEffect'] = 'read'): AuditCall => ({
  origin: 'cell',
  sessionId,
  runId,
  toolCallId: null,
  cellId: 'cell-1',
  generation: 'gen-1',
  method: 'read_note',
  target: key,
  sideEffect,
  rawArguments: JSON.stringify({ key }),
  arguments: { key },
  parseError: null,
});

/** The outcome of a call that ran and succeeded. */
export const ok: AuditOutcome = { decision: { action: 'allow', by: 'default' }, status: 'ok', isError: false, executed: true, text: 'note', durationMs: 0 };
