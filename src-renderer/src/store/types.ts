/**
 * The shape of the store: every slice's interface, the whole AppState and what the
 * store needs from outside. Types only, and no slice module is imported here, so each
 * slice can import AppState without an import cycle (type-only ones included).
 */
import type { StateCreator } from 'zustand';
import type { NotebookSlice } from './notebookTypes';
import type { ProvidersSlice, RetrySlice, SendOptions } from './providersTypes';
import type { FilesSlice } from './filesTypes';
import type { WorkbenchSlice } from './workbenchTypes';
import type {
  ApprovalRule,
  ArtifactBytes,
  ArtifactSummary,
  ArtifactVersion,
  EvidenceRecord,
  ExportResult,
  KernelLanguage,
  KernelLimitExtension,
  KernelStatus,
  SessionStreamEvent,
  SettingsView,
  SkillCatalogView,
  SkillDetail,
} from '../../../src-preload/contract';
import type { EnvironmentList } from '../../../src-preload/contract/environments';
import type { McpPolicyAction, McpView } from '../../../src-preload/contract/mcp';
import type { ErrorBody, MemoryRecord, MemoryScope, ThinkingStepData } from '../../../src-preload/contract';
import type { ComputeJobLogs, ComputeJobView, ComputeTargetView } from '../../../src-preload/contract/compute';
import type { Bridge } from '../api/bridge';
import type { Language } from '../i18n/language';
import type { ConversationState } from './conversationReducer';
import type { DoctorState } from './doctorReducer';
import type { ScheduleFrame } from './frameBatcher';
import type { Loadable } from './loadable';
import type { NoticeInput, NoticesState } from './noticesReducer';
import type { SessionsState } from './sessionsReducer';

/** What the store needs from the outside world; tests pass fakes. */
export interface StoreDeps {
  bridge: Bridge;
  /** Where the language choice is saved; null when storage is unavailable. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Defers stream folding to the next animation frame (tests pass a manual scheduler). */
  scheduleFrame?: ScheduleFrame;
}

export type View = 'home' | 'system' | 'session' | 'settings' | 'skills';
export type RightTab = 'notebook' | 'evidence' | 'artifacts' | 'plan' | 'memory' | 'jobs';

export interface UiSlice {
  language: Language;
  view: View;
  rightTab: RightTab;
  rightOpen: boolean;
  /** The composer's provider/model choice; null means the app's default. */
  provider: string | null;
  model: string | null;
  setLanguage(language: Language): void;
  setView(view: View): void;
  setRightTab(tab: RightTab): void;
  toggleRight(open?: boolean): void;
  setModelChoice(provider: string | null, model: string | null): void;
  /** The evidence record shown in the Evidence tab (a clicked citation). */
  focusedEvidence: string | null;
  focusEvidence(id: string | null): void;
  /** The composer's text (kept across views, so a prefilled example survives navigation). */
  draft: string;
  setDraft(text: string): void;
}

export interface SystemSlice {
  doctor: DoctorState;
  /** Fetches `doctor.get`; `refresh` asks main to probe again instead of using its cache. */
  loadDoctor(refresh?: boolean): Promise<void>;
}

export interface NoticesSlice {
  notices: NoticesState;
  receiveNotice(notice: NoticeInput): void;
  dismissNotice(id: number): void;
}

export interface SessionsSlice {
  sessions: SessionsState;
  loadSessions(): Promise<void>;
  createSession(title?: string): Promise<string | null>;
  renameSession(sessionId: string, title: string): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  setSessionQuery(query: string): void;
  /** Asks main which run of the session is active and which are queued (the badge). */
  refreshActivity(sessionId: string): Promise<void>;
  /** Re-reads one session's summary (its title changes with its first message). */
  refreshSession(sessionId: string): Promise<void>;
}

export type { SendOptions } from './providersTypes';

/** Child agents (issue 20): the composer's switch and the stop button of a child's card. */
export interface DelegationSlice {
  /** Whether the next message may start child agents (the composer's switch; on by default). */
  delegationAllowed: boolean;
  setDelegationAllowed(allowed: boolean): void;
  /** Stops a child agent and its subtree (`delegation.stop`); a failure becomes a notice. */
  stopChild(sessionId: string, runId: string): Promise<void>;
}

export interface ConversationSlice {
  conversation: ConversationState | null;
  openSession(sessionId: string): Promise<void>;
  closeSession(): void;
  /** Folds the session-stream events of one animation frame. */
  receiveStream(events: SessionStreamEvent[]): void;
  /** Sends a message (creating a session when none is open); false when it was not sent. */
  sendMessage(text: string, options?: SendOptions): Promise<boolean>;
  stopRun(): Promise<void>;
  /** Gives the open session's running cell more time (`kernel.extendCellLimit`); null when the call failed. */
  extendCellLimit(language: KernelLanguage, extendMs: number): Promise<KernelLimitExtension | null>;
}

/** A list the right panel shows, for one session. */
export type PanelList<T> = Loadable<T[]> & { sessionId: string | null };

export interface PanelsSlice {
  artifacts: PanelList<ArtifactSummary>;
  evidence: PanelList<EvidenceRecord>;
  loadArtifacts(sessionId: string): Promise<void>;
  loadEvidence(sessionId: string): Promise<void>;
  artifactVersions(artifactId: string): Promise<ArtifactVersion[]>;
  /** Bytes of a version, cached per window (versions are immutable). */
  readArtifact(versionId: string, maxBytes?: number): Promise<ArtifactBytes>;
  /** Shows a version's stored file in the system's file manager (a notice says where it is otherwise). */
  revealArtifact(versionId: string): Promise<void>;
  /**
   * Fetches one record (`evidence.get`) into the session's list: a citation clicked after
   * the list was loaded names a record the list does not have yet.
   */
  fetchEvidence(sessionId: string, id: string): Promise<void>;
  /** The session's literature evidence as BibTeX or RIS text (null after a failure, shown as a notice). */
  exportBibliography(sessionId: string, format: 'bibtex' | 'ris'): Promise<{ text: string; count: number } | null>;
}

export interface SkillsSlice {
  skills: Loadable<SkillCatalogView | null>;
  /** The skill the Skills page shows, with its SKILL.md; `name` is the selection. */
  skill: Loadable<SkillDetail | null> & { name: string | null };
  loadSkills(): Promise<void>;
  /** Loads the catalogue once, when nothing has asked for it yet (the composer's picker and chips). */
  ensureSkills(): void;
  selectSkill(name: string | null): Promise<void>;
  setSkillEnabled(name: string, enabled: boolean): Promise<void>;
  /** Writes a new skill into the user folder and selects it; answers the error, or null. */
  createSkill(name: string, description: string): Promise<ErrorBody | null>;
  revealSkill(name: string): Promise<void>;
}

export type KernelAction = 'interrupt' | 'restart';

export interface KernelsSlice {
  /** `kernel.status` of one session's Python and R kernels. */
  kernels: Loadable<KernelStatus | null> & { sessionId: string | null };
  /** The interrupt or restart in flight, per language (its button is disabled meanwhile). */
  kernelActions: Partial<Record<KernelLanguage, KernelAction>>;
  loadKernels(sessionId: string): Promise<void>;
  runKernelAction(sessionId: string, language: KernelLanguage, action: KernelAction): Promise<void>;
}

export interface EnvironmentsSlice {
  /** `env.list` for one session, or for none (sessionId null: the defaults, as Settings shows them). */
  environments: Loadable<EnvironmentList | null> & { sessionId: string | null };
  /** `refresh` asks main to probe the interpreters again instead of answering from its cache. */
  loadEnvironments(sessionId: string | null, refresh?: boolean): Promise<void>;
  /** Switches the session's kernel of that environment's language (`env.use`), then reloads kernels and list; answers the error, or null. */
  chooseEnvironment(sessionId: string, environmentId: string): Promise<ErrorBody | null>;
}

export type ThemeChoice = 'system' | 'light' | 'dark';

/** A change to the app's settings; null clears a value back to its default. */
export interface SettingsPatch {
  defaultProvider?: string | null;
  defaultModel?: string | null;
  sandboxMode?: 'auto' | 'enforce' | 'off' | null;
  cellTimeoutS?: number | null;
  skillFolders?: string[] | null;
}

export interface SettingsSlice {
  settings: Loadable<SettingsView | null>;
  rules: Loadable<ApprovalRule[]>;
  theme: ThemeChoice;
  loadSettings(): Promise<void>;
  /** Applies a change; answers the error, or null when it was saved. */
  updateSettings(patch: SettingsPatch): Promise<ErrorBody | null>;
  setProviderKey(providerId: string, key: string): Promise<ErrorBody | null>;
  clearProviderKey(providerId: string): Promise<ErrorBody | null>;
  loadRules(): Promise<void>;
  revokeRule(id: string): Promise<void>;
  setTheme(theme: ThemeChoice): void;
}

/** What the composer needs of a dropped or picked file (a DOM File has all of it). */
export interface AttachSource {
  name: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface Attachment {
  id: number;
  name: string;
  size: number;
  status: 'uploading' | 'ready' | 'error';
  /** Workspace-relative path once written (`uploads/<name>`). */
  path: string | null;
  sha256: string | null;
  /** Over the size limit (said by the window), or main's answer (errors/envelopeText.ts). */
  error: 'too-large' | ErrorBody | null;
}

export interface ExportState {
  sessionId: string;
  status: 'running' | 'done' | 'error';
  result: ExportResult | null;
  error: ErrorBody | null;
}

export interface WorkspaceSlice {
  /** `starting` while `demo.start` is in flight (the button shows it and cannot be pressed twice). */
  demoStatus: 'idle' | 'starting';
  /** Starts the recorded insulin replay in a new session and opens it; false when it failed. */
  startDemo(): Promise<boolean>;
  /** The last export of the open session (where the zip went and its digest). */
  exported: ExportState | null;
  exportSession(): Promise<void>;
  dismissExport(): void;
  /** Files attached to the open session's next message. */
  attachments: { sessionId: string | null; items: Attachment[]; nextId: number };
  attachFiles(files: readonly AttachSource[]): Promise<void>;
  removeAttachment(id: number): void;
  /** The paths of the attached files, clearing the list (called when the message is sent). */
  takeAttachments(): string[];
}

/** Memory and the visible plan (issue 19): the Memory and Plan tabs of the right panel. */
export interface MemorySlice {
  /** `memory.list`: the session's memories and the data root's (sessionId null: the data root's only). */
  memories: Loadable<MemoryRecord[]> & { sessionId: string | null };
  loadMemories(sessionId: string | null): Promise<void>;
  /** Each answers the error, or null when it was done (the list is reloaded). */
  addMemory(sessionId: string | null, text: string, scope: MemoryScope): Promise<ErrorBody | null>;
  editMemory(id: string, text: string): Promise<ErrorBody | null>;
  forgetMemory(id: string): Promise<ErrorBody | null>;
  /** `plan.get`: the session's current plan. */
  plan: Loadable<ThinkingStepData[]> & { sessionId: string | null };
  loadPlan(sessionId: string): Promise<void>;
}

/** One change made in Settings → MCP servers. */
export type McpChange =
  | { kind: 'add'; json: string }
  | { kind: 'remove'; name: string }
  | { kind: 'connect'; name: string }
  | { kind: 'policy'; server: string; tool: string | null; policy: McpPolicyAction | null };

export interface McpSlice {
  /** `mcp.list`: the configured servers, their tools and policies, the HTTP token. */
  mcp: Loadable<McpView | null>;
  loadMcp(): Promise<void>;
  /** Makes one change; answers the error, or null (the view is replaced by the answer). */
  changeMcp(change: McpChange): Promise<ErrorBody | null>;
}

/** Compute jobs and targets (issue 23): the Jobs tab of the right panel and Settings → Compute. */
export interface ComputeSlice {
  /** `compute.jobs`: the session's jobs as last polled. */
  jobs: Loadable<ComputeJobView[]> & { sessionId: string | null };
  loadJobs(sessionId: string): Promise<void>;
  /** Cancels a job, then reloads the list; answers the error or null. */
  cancelJob(jobId: string): Promise<ErrorBody | null>;
  /** Asks the target about a job now (a job whose target was unreachable resumes if it answers), then reloads; the error or null. */
  refreshJob(jobId: string): Promise<ErrorBody | null>;
  /** A job's stdout and stderr (not kept in the store: the panel shows them while open). */
  jobLogs(jobId: string): Promise<{ logs: ComputeJobLogs } | { error: ErrorBody }>;
  computeTargets: Loadable<ComputeTargetView[]>;
  loadComputeTargets(): Promise<void>;
  saveComputeTarget(target: Record<string, unknown>): Promise<ErrorBody | null>;
  removeComputeTarget(name: string): Promise<ErrorBody | null>;
}

export type AppState = UiSlice &
  SystemSlice &
  NoticesSlice &
  SessionsSlice &
  ConversationSlice &
  PanelsSlice &
  SettingsSlice &
  WorkspaceSlice &
  SkillsSlice &
  KernelsSlice &
  EnvironmentsSlice &
  DelegationSlice &
  MemorySlice &
  McpSlice &
  NotebookSlice &
  FilesSlice &
  ComputeSlice &
  ProvidersSlice &
  RetrySlice &
  WorkbenchSlice;

/** One slice's creator over the whole state (zustand's slice pattern). */
export type Slice<T> = StateCreator<AppState, [], [], T>;
/** The store's `set`, as each slice creator receives it. */
export type SetState = Parameters<Slice<unknown>>[0];
