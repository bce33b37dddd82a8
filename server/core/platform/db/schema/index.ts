export * from './people.js';
export * from './workspaces.js';
export * from './api-keys.js';
export * from './projects.js';
export * from './assets.js';
export * from './submissions.js';
export * from './outbox.js';
export * from './events.js';
