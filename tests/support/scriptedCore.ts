/**
 * The environment of a real core (`createCore`) whose model is a scripted model on
 * loopback (src-main/core/llm/scripted/server.ts) on the OpenAI wire, over a temporary
 * data dir, with no kernel pre-warmed: the setup of the tests that drive the whole core.
 */
export function scriptedCoreEnv(dataDir: string, modelBaseUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENAI4S_DATA_DIR: dataDir,
    OPENAI4S_KERNEL_PREWARM: '0',
    OPENAI4S_PROVIDER: 'openai',
    OPENAI4S_OPENAI_BASE_URL: modelBaseUrl,
    OPENAI4S_OPENAI_API_KEY: 'scripted-no-key',
    OPENAI4S_OPENAI_MODEL: 'scripted-model',
    ...extra,
  };
}
