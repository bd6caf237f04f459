// The layers of src-main/core, bottom to top (src-main/core/README.md says what lives in
// each). A folder may import its own files and the folders below it, never one above:
// the shape a new engineer can walk, and the reason a capability issue can add a folder
// without creating a circle. Cycles are refused everywhere, type-only imports included.
const CORE_LAYERS = [
  'shared',
  'config',
  'events',
  'security',
  'records',
  'ledger',
  'settings',
  'workspace',
  'skills',
  'llm',
  'providers',
  'engine',
  'kernel',
  'environments',
  'science',
  'provenance',
  'archive',
  'memory',
  'biosecurity',
  'capabilities',
  'mcp',
  'compute',
  'runner',
  'delegation',
  'export',
  'doctor',
  'demo',
  'api',
];

const core = (folders) => `^src-main/core/(${folders.join('|')})/`;

const layerRules = CORE_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `core-layer-${layer}`,
  comment: `src-main/core/${layer} may import only ${i ? CORE_LAYERS.slice(0, i).join(', ') : 'nothing else in core'} (src-main/core/README.md).`,
  severity: 'error',
  from: { path: core([layer]) },
  to: { path: [core(CORE_LAYERS.slice(i + 1)), '^src-main/core/core\\.ts$'] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles (type-only ones too) make a layer impossible to read or test alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-folders-are-layers',
      comment: 'Every file of src-main/core lives in a layer folder (or is the composition root core.ts); add a new folder to CORE_LAYERS.',
      severity: 'error',
      from: { path: '^src-main/core/', pathNot: [core(CORE_LAYERS), '^src-main/core/core\\.ts$'] },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^out/', '^node_modules/', '^tests/lint/fixtures/'] },
    // Type-only imports are dependencies too: a type circle is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
