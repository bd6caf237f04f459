import path from 'node:path';
import { appRoot } from '../config/appPaths';
import { startScriptedModel } from '../llm/scripted/server';
import { startFixtureServer } from './fixtureServer';
import { DEMO_MODEL, INSULIN_QUESTION, INSULIN_ROUTES, insulinScript } from './insulinStory';

export interface DemoEnvironment {
  /** Variables that point the core at the replay: provider, model, science endpoints. */
  env: Record<string, string>;
  question: string;
  title: string;
  close(): Promise<void>;
}

/**
 * The insulin story as a replay, for a new user without a key: the model is the
 * scripted model server (real OpenAI wire on 127.0.0.1) and UniProt/RCSB are recorded
 * payloads served on 127.0.0.1. Everything else (engine, sandboxed kernel, connectors,
 * evidence, artifacts, ledger) is the real app, so the session it leaves is real.
 */
export async function startInsulinDemo(root = appRoot()): Promise<DemoEnvironment> {
  const fixtures = await startFixtureServer(path.join(root, 'resources', 'demo'), INSULIN_ROUTES);
  const model = await startScriptedModel(insulinScript());
  return {
    env: {
      OPENAI4S_PROVIDER: 'openai',
      OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
      OPENAI4S_OPENAI_API_KEY: 'demo-replay-no-key',
      OPENAI4S_OPENAI_MODEL: DEMO_MODEL,
      OPENAI4S_UNIPROT_BASE_URL: fixtures.origin,
      OPENAI4S_PDB_SEARCH_BASE_URL: fixtures.origin,
      OPENAI4S_PDB_FILES_BASE_URL: fixtures.origin,
      OPENAI4S_PDB_DATA_BASE_URL: fixtures.origin,
    },
    question: INSULIN_QUESTION,
    title: '演示回放：人胰岛素 INS（录制数据）',
    async close() {
      await Promise.all([model.close(), fixtures.close()]);
    },
  };
}
