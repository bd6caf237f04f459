import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import type { UiLanguage } from '../../src-preload/contract/settings';
import type { ApprovalAnswer, ApprovalPort, ApprovalQuestion } from '../core/capabilities/permissions/approvals';

/** The words of the approval box in each language of the window. */
interface ApprovalText {
  /** In order; the index is what showMessageBox answers. Deny is the default and the cancel. */
  buttons: readonly [string, string, string];
  remember: string;
  verb: Record<ApprovalQuestion['sideEffect'], string>;
  /** Questions the safety layers ask (issue 27): they speak for the layer, not the agent, and offer no "always". */
  safety: Record<string, string>;
  safetyTitle: string;
  preScan: string;
  title: string;
  wants: (verb: string, tool: string, target: string) => string;
  tool: string;
  target: string;
  reason: string;
  noReason: string;
  from: string;
  fromCell: string;
  fromTool: string;
  args: string;
}

const TEXT: Record<UiLanguage, ApprovalText> = {
  en: {
    buttons: ['Allow once', 'Allow for this session', 'Deny'],
    remember: 'Remember "Allow for this session" or "Deny" for this target (always)',
    verb: { read: 'read', write: 'change', network: 'reach the network', exec: 'run a program' },
    safety: { cell_review: 'A cell was flagged before it runs', biosecurity_screen: 'Biosecurity screening asks you to confirm' },
    safetyTitle: 'Safety check',
    preScan: 'What the pre-scan found:',
    title: 'Approval needed',
    wants: (verb, tool, target) => `The agent wants to ${verb}: ${tool} on ${target}`,
    tool: 'Tool',
    target: 'Target',
    reason: 'Reason given by the agent',
    noReason: '(the agent gave no reason)',
    from: 'Requested from',
    fromCell: 'a code cell (host call)',
    fromTool: 'a tool call',
    args: 'Arguments',
  },
  'zh-CN': {
    buttons: ['仅允许这一次', '本会话内允许', '拒绝'],
    remember: '记住“本会话内允许”或“拒绝”，以后对此目标一直如此',
    verb: { read: '读取', write: '修改', network: '访问网络', exec: '运行程序' },
    safety: { cell_review: '一个单元格在运行前被标记', biosecurity_screen: '生物安全筛查请你确认' },
    safetyTitle: '安全检查',
    preScan: '预扫描发现：',
    title: '需要你的批准',
    wants: (verb, tool, target) => `智能体想要${verb}：对 ${target} 使用 ${tool}`,
    tool: '工具',
    target: '目标',
    reason: '智能体给出的理由',
    noReason: '（智能体未说明理由）',
    from: '请求来自',
    fromCell: '代码单元（host 调用）',
    fromTool: '工具调用',
    args: '参数',
  },
};

/** The English buttons, in order (the index is what showMessageBox answers). */
export const APPROVAL_BUTTONS = TEXT.en.buttons;
export const REMEMBER_LABEL = TEXT.en.remember;

/** The approval box in the window's language (`en` when not given). */
export function approvalDialogOptions(q: ApprovalQuestion, signal?: AbortSignal, language: UiLanguage = 'en'): MessageBoxOptions {
  const text = TEXT[language];
  const safety = Object.hasOwn(text.safety, q.tool) ? text.safety[q.tool] : undefined;
  if (safety) {
    return {
      type: 'warning',
      title: text.safetyTitle,
      message: safety,
      // The cell review's reason lists the flagged lines; the screening adds what the pre-scan found.
      detail: [q.reason, q.tool === 'biosecurity_screen' && q.detail ? `${text.preScan}\n${q.detail}` : ''].filter(Boolean).join('\n\n'),
      buttons: [...text.buttons],
      defaultId: 2,
      cancelId: 2,
      noLink: true,
      ...(signal ? { signal } : {}),
    };
  }
  const colon = language === 'en' ? ': ' : '：';
  return {
    type: 'question',
    title: text.title,
    message: text.wants(text.verb[q.sideEffect], q.tool, q.target),
    detail: [
      `${text.tool}${colon}${q.tool}`,
      `${text.target}${colon}${q.target}`,
      `${text.reason}${colon}${q.reason || text.noReason}`,
      `${text.from}${colon}${q.origin === 'cell' ? text.fromCell : text.fromTool}`,
      q.detail ? `${text.args}${colon}${q.detail}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    buttons: [...text.buttons],
    defaultId: 2,
    cancelId: 2,
    noLink: true,
    checkboxLabel: text.remember,
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
export function createDialogApprovals(deps: { dialog: Pick<Dialog, 'showMessageBox'>; window: () => BrowserWindow | null; language?: () => UiLanguage }): ApprovalPort {
  return {
    kind: 'dialog',
    async ask(question, signal) {
      const options = approvalDialogOptions(question, signal, deps.language?.() ?? 'en');
      const win = deps.window();
      try {
        const result = win && !win.isDestroyed() ? await deps.dialog.showMessageBox(win, options) : await deps.dialog.showMessageBox(options);
        // A safety question has no "remember" box: its answer is never a stored rule.
        return answerOf(result.response, !Object.hasOwn(TEXT.en.safety, question.tool) && result.checkboxChecked);
      } catch {
        // A dialog that cannot be shown answers no: a call never runs without a yes.
        return 'deny';
      }
    },
  };
}
