import { createModel, LlmError, type Part } from '../../core/llm';
import type { CliCommand } from '../command';
import { stripTerminalControls } from '../terminalText';

/**
 * One model reply, streamed: checks a provider end to end (key, base URL, model,
 * wire) without the engine. Text goes to stdout; reasoning, tool calls and the
 * usage/cost line to stderr; `--json` prints every normalized part as a JSON line.
 */
export const llmCommand: CliCommand = {
  name: 'llm',
  summary: 'Stream one model reply from a provider (checks key, base URL, model, wire)',
  usage: 'openai4s llm [--provider ID] [--model M] [--system TEXT] [--json] <prompt...>',
  options: { provider: { type: 'string' }, model: { type: 'string' }, system: { type: 'string' }, json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const prompt = positionals.join(' ').trim();
    if (!prompt) {
      io.err('Give a prompt, e.g. openai4s llm "Say hello in Chinese."');
      return 2;
    }
    const config = core!.config;
    const providerId = typeof values.provider === 'string' ? values.provider : config.defaultProvider;
    let model;
    try {
      model = createModel(providerId, {
        env: config.env,
        ...(typeof values.model === 'string' ? { model: values.model } : {}),
        ...(config.settingsKey ? { settingsKey: config.settingsKey } : {}),
        ...(config.settingsEndpoint ? { settingsEndpoint: config.settingsEndpoint } : {}),
      });
    } catch (error) {
      if (error instanceof LlmError) {
        io.err(error.message);
        return 1;
      }
      throw error;
    }
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    process.once('SIGTERM', onSigint);
    let failed = false;
    let text = '';
    try {
      for await (const part of model.stream({
        messages: [{ role: 'user', content: prompt }],
        ...(typeof values.system === 'string' ? { system: values.system } : {}),
        signal: controller.signal,
      })) {
        if (values.json) io.out(JSON.stringify(part));
        else text = printPart(part, text, io);
        if (part.type === 'error') failed = true;
      }
    } finally {
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigint);
    }
    if (!values.json && text) io.out(stripTerminalControls(text));
    return failed ? 1 : 0;
  },
};

/** Human output: text is collected and printed whole (CliIO is line-based); the rest as lines. */
function printPart(part: Part, text: string, io: { err(t: string): void }): string {
  switch (part.type) {
    case 'text-delta':
      return text + part.text;
    case 'reasoning-delta':
      return text;
    case 'tool-call-end':
      io.err(`tool call ${part.name}(${part.rawArguments})${part.parseError ? `  [${part.parseError}]` : ''}`);
      return text;
    case 'retry':
      io.err(`${part.error.errorType}: ${part.error.message}; retrying in ${(part.delayMs / 1000).toFixed(1)} s`);
      return text;
    case 'error':
      io.err(`error (${part.error.errorType}${part.error.code ? `, ${part.error.code}` : ''}): ${part.error.message}`);
      return text;
    case 'finish': {
      const u = part.usage;
      const cost = part.cost ? `  cost ${part.cost.currency === 'CNY' ? '¥' : '$'}${part.cost.amount.toFixed(6)}` : '';
      io.err(
        `${part.model}: ${part.reason}; tokens in ${u.promptTokens ?? '?'} (cached ${u.cachedTokens ?? '?'}), out ${u.completionTokens ?? '?'} (reasoning ${u.reasoningTokens ?? '?'})${cost}`,
      );
      return text;
    }
    default:
      return text;
  }
}
