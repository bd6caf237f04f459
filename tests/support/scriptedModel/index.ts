export { startScriptedModel, type RecordedRequest, type ScriptedModel, type ScriptedModelOptions } from './server';
export type { ErrorStep, HangStep, RawStep, ReplyItem, ReplyStep, ScriptStep, ScriptUsage } from './script';
export { chunksToSse, readTranscript, transcriptStep, LLM_STREAM_FIXTURES } from './transcripts';
