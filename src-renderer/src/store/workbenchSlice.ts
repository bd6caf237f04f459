import { errorNotice } from './noticesReducer';
import { translate } from '../i18n/language';
import type { Slice, StoreDeps } from './types';
import type { WorkbenchSlice } from './workbenchTypes';

export const createWorkbenchSlice =
  (deps: StoreDeps): Slice<WorkbenchSlice> =>
  (set, get) => ({
    approvalAnswers: {},
    async decideApproval(requestId, answer) {
      set((s) => ({ approvalAnswers: { ...s.approvalAnswers, [requestId]: answer } }));
      try {
        const result = await deps.bridge.invoke('approval.decide', { requestId, answer });
        // Too late (answered in the dialog, expired at a restart): the stream already shows the outcome.
        if (!result.delivered) get().receiveNotice({ level: 'info', message: translate(get().language, 'approval.tooLate') });
      } catch (error) {
        get().receiveNotice(errorNotice(error));
      } finally {
        set((s) => {
          const { [requestId]: _done, ...rest } = s.approvalAnswers;
          return { approvalAnswers: rest };
        });
      }
    },
    sidebarOpen: true,
    toggleSidebar(open) {
      set((s) => ({ sidebarOpen: open ?? !s.sidebarOpen }));
    },
  });
