import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../core/capabilities/permissions/approvals';

/** The buttons, in order; the index is what showMessageBox answers. Deny is the default and the cancel. */
export const APPROVAL_BUTTONS = ['Allow once', 'Allow for this session', 'Deny'] as const;
export const REMEMBER_LABEL = 'Remember "Allow for this session" or "Deny" for this target (always)';

const VERB: Record<ApprovalQuestion['sideEffect'], string> = {
  read: 'read',
  write: 'change',
  network: 'reach the network',
  exec: 'run a program',
};

/** Questions the safety layers ask (issue 27): they speak for the layer, not the agent, and offer no "always". */
const SAFETY_QUESTIONS: Record<string, string> = {
  cell_review: 'A cell was flagged before it runs',
  biosecurity_screen: 'Biosecurity screening asks you to confirm',
};

export function approvalDialogOptions(q: ApprovalQuestion, signal?: AbortSignal): MessageBoxOptions {
  const safety = SAFETY_QUESTIONS[q.tool];
  if (safety) {
    return {
      type: 'warning',
      title: 'Safety check',
      message: safety,
      // The cell review's reason lists the flagged lines; the screening adds what the pre-scan found.
      detail: [q.reason, q.tool === 'biosecurity_screen' && q.detail ? `What the pre-scan found:\n${q.detail}` : ''].filter(Boolean).join('\n\n'),
      buttons: [...APPROVAL_BUTTONS],
      defaultId: 2,
      cancelId: 2,
      noLink: true,
      ...(signal ? { signal } : {}),
    };
  }
  return {
    type: 'question',
    title: 'Approval needed',
    message: `The agent wants to ${VERB[q.sideEffect]}: ${q.tool} on ${q.target}`,
    detail: [
      `Tool: ${q.tool}`,
      `Target: ${q.target}`,
      `Reason given by the agent: ${q.reason}`,
      `Requested from: ${q.origin === 'cell' ? 'a code cell (host call)' : 'a tool call'}`,
      q.detail ? `Arguments: ${q.detail}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    buttons: [...APPROVAL_BUTTONS],
    defaultId: 2,
    cancelId: 2,
    noLink: true,
    checkboxLabel: REMEMBER_LABEL,
    checkboxChecked: false,
    ...(signal ? { signal } : {}),
  };
}

export function answerOf(response: number, remember: boolean): ApprovalAnswer {
  if (response === 0) return 'allow_once';
  if (response === 1) return remember ? 'allow_always' : 'allow_session';
  return remember ? 'deny_always' : 'deny';
}

/**
 * The app's ApprovalPort: a native message box on the app window (modal to it when there is
 * one). Closing the box, Escape, or a failure to show it all mean Deny. The same question is
 * shown as a card in the conversation; answered there, `signal` aborts and the box closes.
 */
export function createDialogApprovals(deps: { dialog: Pick<Dialog, 'showMessageBox'>; window: () => BrowserWindow | null }): ApprovalPort {
  return {
    kind: 'dialog',
    async ask(question, signal) {
      const options = approvalDialogOptions(question, signal);
      const win = deps.window();
      try {
        const result = win && !win.isDestroyed() ? await deps.dialog.showMessageBox(win, options) : await deps.dialog.showMessageBox(options);
        // A safety question has no "remember" box: its answer is never a stored rule.
        return answerOf(result.response, !SAFETY_QUESTIONS[question.tool] && result.checkboxChecked);
      } catch {
        // A dialog that cannot be shown answers no: a call never runs without a yes.
        return 'deny';
      }
    },
  };
}
