// The scripted model lives in the app (the demo plays it); tests use it from here.
export { startScriptedModel, type RecordedRequest, type ScriptedModel, type ScriptedModelOptions } from '../../../src-main/core/llm/scripted/server';
export type { DynamicStep, ErrorStep, HangStep, RawStep, ReplyItem, ReplyStep, ScriptStep, ScriptUsage, StaticStep } from '../../../src-main/core/llm/scripted/script';
export { chunksToSse, readTranscript, transcriptStep, LLM_STREAM_FIXTURES } from './transcripts';
