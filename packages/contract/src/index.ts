export * from './messages.js';
export * from './errors.js';
export * from './categories.js';
export * from './plans.js';
export * from './limits.js';
export * from './api.js';
export * from './user.js';
