// Runs every benchmark; `npm run bench` builds first.
await import('./startup.mjs');
await import('./create.mjs');
await import('./batch-local.mjs');
await import('./server.mjs');
await import('./verify.mjs');
await import('./lifecycle.mjs');
await import('./webhooks.mjs');
await import('./wait.mjs');
