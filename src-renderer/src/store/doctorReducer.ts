import type { DoctorReport, ErrorBody } from '../../../src-preload/contract';

/**
 * The System panel's data as a pure state machine. A refresh keeps the last report
 * on screen; an answer to an older request (a slow first load finishing after a
 * refresh) is ignored, so the panel never goes back in time.
 */
export interface DoctorState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  report: DoctorReport | null;
  error: ErrorBody | null;
  /** The id of the newest request; answers to any other are stale. */
  requestId: number;
}

export type DoctorAction =
  | { type: 'doctor/requested'; requestId: number }
  | { type: 'doctor/loaded'; requestId: number; report: DoctorReport }
  | { type: 'doctor/failed'; requestId: number; error: ErrorBody };

export const initialDoctorState: DoctorState = {
  status: 'idle',
  report: null,
  error: null,
  requestId: 0,
};

export function doctorReducer(state: DoctorState, action: DoctorAction): DoctorState {
  switch (action.type) {
    case 'doctor/requested':
      if (action.requestId <= state.requestId) return state;
      return { ...state, status: 'loading', error: null, requestId: action.requestId };
    case 'doctor/loaded':
      if (action.requestId !== state.requestId) return state;
      return { status: 'ready', report: action.report, error: null, requestId: state.requestId };
    case 'doctor/failed':
      if (action.requestId !== state.requestId) return state;
      // The last good report stays visible under the error.
      return { ...state, status: 'error', error: action.error };
  }
}
