import type {
  DataPartName,
  DataPartOf,
  DataUIPart,
  KnownDataUIPart,
  UIPart,
} from '../../../../src-preload/contract';
import { isRecord } from './format';

/**
 * The names of the contract's map of data parts (src-preload/contract/dataParts.ts). Typed
 * as a record over `DataPartName`, so a part added to the map and not here (or the other
 * way round) is a compile error; the renderer ships no schema code, only these names.
 */
const KNOWN: Record<DataPartName, true> = {
  cell: true,
  answer: true,
  evidence: true,
  artifact: true,
  approval: true,
  'host-call': true,
  'run-status': true,
  error: true,
  child: true,
  'child-event': true,
  'thinking-step': true,
  compaction: true,
  'compute-job': true,
};

/**
 * A part as one of the map's, by its name. Main emits data parts only through the map's
 * typed emitter (and main is trusted, DESIGN.md "IPC"), so the name decides the shape;
 * data that is not even an object is left to the unknown-part view.
 */
export function knownDataPart(part: UIPart): KnownDataUIPart | null {
  if (!part.type.startsWith('data-')) return null;
  const p = part as DataUIPart;
  if (!Object.prototype.hasOwnProperty.call(KNOWN, p.type.slice(5)) || !isRecord(p.data)) return null;
  return p as KnownDataUIPart;
}

/** True for a data part of the given name (see `knownDataPart`). */
export function isDataPart<K extends DataPartName>(part: UIPart, name: K): part is DataPartOf<K> & UIPart {
  return part.type === `data-${name}` && knownDataPart(part) !== null;
}
