/** Types-only entry for the renderer: `import type { ... } from '.../contract'`. */
export type * from './define';
export type * from './errors';
export type * from './doctor';
export type * from './workspace';
export type * from './demo';
export type * from './kernel';
export type * from './answer';
export type * from './approvals';
export type * from './events';
export type * from './runs';
export type * from './sessions';
export type * from './settings';
export type * from './stream';
export type * from './evidence';
export type * from './artifacts';
export type { Routes, RouteName } from './routes';
export type * from './dataParts';
export type * from './skills';
