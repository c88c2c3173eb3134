export * from './common';
export * from './auth';
export * from './tasks';
export * from './timeclock';
export * from './dashboard';
export * from './notifications';
export * from './admin';
export * from './reports';
