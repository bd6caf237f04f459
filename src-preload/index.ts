import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type BridgeApi } from './contract/events';

/**
 * The whole bridge: `window.openai4s = { invoke, on }`. One funnel channel each way;
 * main validates the sender and the input of every call.
 */
const api: BridgeApi = {
  invoke: (route, input) => ipcRenderer.invoke(INVOKE_CHANNEL, route, input),
  on: (topic, callback) => {
    const listener = (_event: IpcRendererEvent, eventTopic: unknown, payload: unknown) => {
      if (eventTopic === topic) callback(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('openai4s', Object.freeze(api));
