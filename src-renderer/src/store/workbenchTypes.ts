import type { WindowApprovalAnswer } from '../../../src-preload/contract/approvals';

/**
 * Issue 24 (part B): approvals answered in the window, and the window's layout (the
 * sidebar and the side panel collapse below a width and by shortcut).
 */
export interface WorkbenchSlice {
  /** Answers given in the window and still on their way (request id → answer): the card shows them pending. */
  approvalAnswers: Record<string, WindowApprovalAnswer>;
  /** Answers a pending approval from its card (`approval.decide`); a failure becomes a notice. */
  decideApproval(requestId: string, answer: WindowApprovalAnswer): Promise<void>;
  sidebarOpen: boolean;
  toggleSidebar(open?: boolean): void;
}
