// The one catalogue of Spanish texts: import everything from '@shared/labels'.
export * from './common';
export * from './errors';
export * from './accounts';
export * from './ui';
export * from './system';
export * from './tasks';
export * from './supervision';
export * from './driver';
export * from './admin';
export * from './board';
export * from './wall';
export * from './push';
export * from './yard';
export * from './gate';
export * from './trailers';
export * from './handover';
export * from './deadlines';
