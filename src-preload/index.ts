import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  SUBSCRIPTIONS_CHANNEL,
  type BridgeApi,
} from './contract/events';
import { createTopicListeners } from './topicListeners';

/**
 * The whole bridge: `window.openai4s = { invoke, on }`. One funnel channel each way,
 * plus the subscriptions message: `on` tells main which topics this window hears, so
 * main sends nothing the window would drop. Main validates the sender of every message
 * and the input of every call.
 */
let listening = false;
const listeners = createTopicListeners((topics) => {
  ipcRenderer.send(SUBSCRIPTIONS_CHANNEL, topics);
  // The event channel is listened to only while some topic is heard.
  if (topics.length > 0 && !listening) ipcRenderer.on(EVENT_CHANNEL, fromMain);
  if (topics.length === 0 && listening) ipcRenderer.removeListener(EVENT_CHANNEL, fromMain);
  listening = topics.length > 0;
});

function fromMain(_event: IpcRendererEvent, topic: unknown, payload: unknown): void {
  if (typeof topic === 'string') listeners.dispatch(topic, payload);
}

// A new document hears nothing yet: this resets what the previous one (before a
// reload) subscribed to. Messages of one renderer reach main in order.
ipcRenderer.send(SUBSCRIPTIONS_CHANNEL, []);

const api: BridgeApi = {
  invoke: (route, input) => ipcRenderer.invoke(INVOKE_CHANNEL, route, input),
  on: (topic, callback) => listeners.add(topic, callback),
};

contextBridge.exposeInMainWorld('openai4s', Object.freeze(api));
