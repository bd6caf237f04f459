import type { ConnectionTestResult, ErrorBody, ProvidersView } from '../../../src-preload/contract';
import type { InputOf } from '../api/bridge';
import type { Loadable } from './loadable';

export interface SendOptions {
  provider?: string;
  model?: string;
  /** False: the agent may not start child agents for this message. */
  delegation?: boolean;
  /** Retry or edit-and-resend: the finished run this message replaces (it stays in the ledger). */
  supersedes?: string;
}

/** What the setup form saves (`provider.configure`). */
export type ProviderConfigureInput = InputOf<'provider.configure'>;
export type ProviderTestInput = InputOf<'provider.test'>;

/** A message that waits for a provider: sent once the setup saved one that is ready. */
export interface PendingMessage {
  text: string;
  options: SendOptions;
  /** It came from the composer: its draft is cleared when it is sent. */
  fromDraft: boolean;
}

/** The setup dialog (the welcome screen shows the same form inline). */
export interface SetupState {
  open: boolean;
  /** The provider the form shows first. */
  providerId: string | null;
  pending: PendingMessage | null;
}

/** Model providers (issue 24): readiness, the setup form, the connection test, and sending only when ready. */
export interface ProvidersSlice {
  providers: Loadable<ProvidersView | null>;
  setup: SetupState;
  /** `refresh` asks local endpoints again instead of answering from the last check. */
  loadProviders(refresh?: boolean): Promise<void>;
  /** Saves the setup form; answers the new view, or the error. A pending message is then sent. */
  configureProvider(input: ProviderConfigureInput): Promise<{ view: ProvidersView } | { error: ErrorBody }>;
  /** Test connection with the form's values (nothing is saved). */
  testProvider(input: ProviderTestInput): Promise<ConnectionTestResult | { error: ErrorBody }>;
  openSetup(providerId?: string | null, pending?: PendingMessage | null): void;
  closeSetup(): void;
  /**
   * Sends a message, or opens the setup when its provider is not ready (the message waits
   * there). `sent`: a run was submitted; `setup`: it waits for a provider; `failed`: not sent.
   */
  ask(text: string, options: SendOptions, fromDraft?: boolean): Promise<'sent' | 'setup' | 'failed'>;
}

/**
 * Retry, regenerate and edit-and-resend (issue 24): each starts a new run that supersedes
 * the old one (kept in the ledger and on screen, marked as replaced).
 */
export interface RetrySlice {
  /** Asks the question of `runId` again (Retry after a failure, Regenerate after an answer). */
  retryRun(runId: string): Promise<'sent' | 'setup' | 'failed'>;
  /** Sends `text` in place of the question of `runId`. */
  resendEdited(runId: string, text: string): Promise<'sent' | 'setup' | 'failed'>;
}
