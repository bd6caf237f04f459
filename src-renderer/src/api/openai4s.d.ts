import type { BridgeApi } from '../../../src-preload/contract';

// The preload (src-preload/index.ts) exposes exactly this object; the e2e harness
// imitates it. The facade in ./bridge.ts is the only code that should touch it.
declare global {
  interface Window {
    openai4s: BridgeApi;
  }
}

export {};
