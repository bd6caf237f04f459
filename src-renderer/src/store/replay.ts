import type { RunRecord, UIMessage } from '../../../src-preload/contract';

/**
 * How the UI knows a session is the recorded demo. The model id is the demo's own
 * (`DEMO_MODEL` in src-main/core/demo/insulinStory.ts: the renderer may not import
 * main); the title prefix is the demo session's title, for the sidebar, which has
 * only titles. A renderer test pins both to the values main uses.
 */
export const DEMO_MODEL_ID = 'openai4s-demo-replay';
export const DEMO_TITLE_PREFIX = '演示回放';

export function isReplayTitle(title: string): boolean {
  return title.startsWith(DEMO_TITLE_PREFIX);
}

/** A session is a replay when one of its runs (or a message's metadata) names the demo model. */
export function isReplaySession(
  runs: readonly Pick<RunRecord, 'model'>[],
  messages: readonly Pick<UIMessage, 'metadata'>[],
): boolean {
  if (runs.some((r) => r.model === DEMO_MODEL_ID)) return true;
  return messages.some((m) => {
    const meta = m.metadata as { model?: unknown } | undefined;
    return meta?.model === DEMO_MODEL_ID;
  });
}
