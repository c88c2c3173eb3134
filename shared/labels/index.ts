// The one catalogue of Spanish texts: import everything from '@shared/labels'.
export * from './common';
export * from './errors';
