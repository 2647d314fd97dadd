// The layers of src/ (README, Design): the front doors call app (the use cases) or the port;
// app calls the port (service); the adapters (local, remote) implement it; the domain (rules,
// schemas, states) is imported by them all and imports none of them; src/wiring, above them
// all, builds the backend and hands each door what it starts. Type imports and import() count.
// `npm run layers` prints what breaks a rule; test/layers.test.ts runs it in `npm test`.
const DOORS = 'cli|server|mcp|scenario';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle (type imports and import() included): move what both sides need into a module of its own.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'door-to-door',
      comment: 'A front door never imports another door: what two doors share belongs in src/app or the port.',
      severity: 'error',
      from: { path: `^src/(${DOORS})/` },
      to: { path: `^src/(${DOORS})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'door-to-adapter',
      comment: 'A door reaches a backend through the port only: src/wiring builds the backend and hands it over.',
      severity: 'error',
      from: { path: `^src/(${DOORS})/` },
      to: { path: '^src/(local|remote|wiring)/' },
    },
    {
      name: 'app-knows-no-door',
      comment: 'src/app is called by the doors and calls the port: no door, adapter or wiring in it.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: `^src/(${DOORS}|local|remote|wiring)/` },
    },
    {
      name: 'adapter-knows-no-door',
      comment: 'local/ and remote/ implement the port: no door, no use case, no wiring, and not each other.',
      severity: 'error',
      from: { path: '^src/(local|remote)/' },
      to: { path: `^src/(${DOORS}|app|wiring)/` },
    },
    {
      name: 'adapters-apart',
      severity: 'error',
      from: { path: '^src/(local|remote)/' },
      to: { path: '^src/(local|remote)/', pathNot: '^src/$1/' },
    },
    {
      name: 'port-imports-nothing-outside',
      comment: 'src/service is the port: it imports nothing of src/ but itself and the domain.',
      severity: 'error',
      from: { path: '^src/service/' },
      to: { path: '^src/', pathNot: '^src/(service|domain)/' },
    },
    {
      name: 'domain-imports-nothing-outside',
      comment: 'src/domain (rules, schemas, states) imports nothing of src/ outside itself, not even the port.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'nothing-imports-wiring',
      comment: 'src/wiring is the top: it builds the rest, and nothing imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/wiring/' },
      to: { path: '^src/wiring/' },
    },
    {
      name: 'lazy-in-one-place',
      comment:
        "A command's modules import what they use at their top. What loads later loads in one of two places: a verb's body through the verb seam (`verb.loads(() => import('./x.run.js'))` in its noun's index.ts, or src/wiring for the doors it starts), a package or a heavy module of the port through src/lazyImport.ts.",
      severity: 'error',
      from: {
        path: '^src/(cli|wiring)/',
        pathNot: [
          '/index\\.ts$',
          '^src/cli/commands/batch/batch\\.ts$',
          '^src/cli/main\\.ts$',
          '^src/wiring/[^/]+\\.ts$',
        ],
      },
      to: { dependencyTypes: ['dynamic-import'] },
    },
    {
      name: 'resolvable',
      comment: 'An import the resolver cannot follow would hide its edge from every rule above.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
