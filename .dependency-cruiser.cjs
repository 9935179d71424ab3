/**
 * Dependency rules for tickfeed (dependency-cruiser). Run: `npm run deps`; also enforced by
 * test/infra/deps.test.ts.
 *
 * Target layout of functions/, imports running one way (a layer may import any layer below it,
 * skipping is fine, never one above):
 *
 *   handlers → http → services → stores → model → platform → lib/defs
 *
 * - functions/stores/ and functions/platform/ are the only importers of the DynamoDB client
 *   packages (functions/model/ may import their *types*: `import type …` / `import { type … }`).
 * - lib/defs/ imports nothing outside lib/defs/ (npm packages and node built-ins are fine).
 * - lib/ (the CDK app) and bin/ never import functions/ nor local/.
 * - no import cycles in functions/ or lib/ (type-only edges count too).
 * - local/, test/ and bench/ may import anything (no rule starts from them).
 *
 * Paths are matched relative to the directory the cruise runs in (the repo root, or `baseDir`).
 * CommonJS on purpose: the package is "type": "module", and .cjs is loaded by the CLI and by
 * `extractDepcruiseOptions` alike.
 */

/** Highest first: each layer may import only the ones after it. */
const LAYERS = [
  { name: 'handlers', path: '^functions/handlers/' },
  { name: 'http', path: '^functions/http/' },
  { name: 'services', path: '^functions/services/' },
  { name: 'stores', path: '^functions/stores/' },
  { name: 'model', path: '^functions/model/' },
  { name: 'platform', path: '^functions/platform/' },
];
const LAYER_PATHS = LAYERS.map((l) => l.path);

/** The DynamoDB client packages, resolved (node_modules/…) or, if unresolvable, as written. */
const DYNAMODB_PACKAGES = [
  '(^|/)node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb|util-dynamodb)/',
  '^@aws-sdk/(client-dynamodb|lib-dynamodb|util-dynamodb)(/|$)',
];

const upwardRules = LAYERS.slice(1).map((layer, i) => {
  const above = LAYERS.slice(0, i + 1);
  return {
    name: `layer-${layer.name}-imports-upward`,
    comment: `functions/${layer.name}/ may only import the layers below it, ` + `not ${above.map((l) => `functions/${l.name}/`).join(', ')}.`,
    severity: 'error',
    from: { path: layer.path },
    to: { path: above.map((l) => l.path) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycle in functions/ or lib/: break it (move the shared part down a layer).',
      severity: 'error',
      from: { path: '^(functions|lib)/' },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: 'functions-outside-layers-imported',
      comment: 'Code in functions/ lives in one of handlers/, http/, services/, stores/, model/, platform/; ' + 'nothing may import a module outside them.',
      severity: 'error',
      from: {},
      to: { path: '^functions/', pathNot: LAYER_PATHS },
    },
    {
      name: 'functions-outside-layers-importing',
      comment:
        'Code in functions/ lives in one of handlers/, http/, services/, stores/, model/, platform/; ' +
        'a module outside them may not take part in the dependency graph.',
      severity: 'error',
      from: { path: '^functions/', pathNot: LAYER_PATHS },
      to: {},
    },
    {
      name: 'functions-import-only-lib-defs',
      comment:
        'functions/ may import lib/defs/ (the layer below platform) but no other repo code: ' + 'not the CDK app (lib/, bin/) nor local/, test/, bench/.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(lib|bin|local|test|bench)/', pathNot: '^lib/defs/' },
    },
    {
      name: 'lib-defs-self-contained',
      comment: 'lib/defs/ is read by both the CDK app and the functions: it imports nothing outside ' + 'lib/defs/ except npm packages and node built-ins.',
      severity: 'error',
      from: { path: '^lib/defs/' },
      to: { pathNot: ['^lib/defs/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'cdk-app-not-to-functions',
      comment: 'lib/ and bin/ (the CDK app) never import functions/: they bundle them by entry path.',
      severity: 'error',
      from: { path: '^(lib|bin)/' },
      to: { path: '^functions/' },
    },
    {
      name: 'cdk-app-not-to-local',
      comment: 'lib/ and bin/ (the CDK app) never import local/: the local runtime and its web console ' + '(/console, its token endpoint) are never deployed.',
      severity: 'error',
      from: { path: '^(lib|bin)/' },
      to: { path: '^local/' },
    },
    {
      name: 'dynamodb-client-outside-stores',
      comment:
        'Only functions/stores/ and functions/platform/ import the DynamoDB client packages ' +
        '(@aws-sdk/client-dynamodb, lib-dynamodb, util-dynamodb); functions/model/ may import their types only.',
      severity: 'error',
      from: {
        path: '^(functions|lib|bin)/',
        pathNot: ['^functions/stores/', '^functions/platform/', '^functions/model/'],
      },
      to: { path: DYNAMODB_PACKAGES },
    },
    {
      name: 'dynamodb-client-in-model',
      comment:
        'functions/model/ may import types from the DynamoDB client packages (`import type`), ' + "never values: reading and writing is the stores' job.",
      severity: 'error',
      from: { path: '^functions/model/' },
      to: { path: DYNAMODB_PACKAGES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'An import that dependency-cruiser cannot resolve would slip past every rule above ' +
        '(e.g. a `.js` specifier with no matching .ts file): it must resolve.',
      severity: 'error',
      from: { path: '^(functions|lib|bin)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Keep type-only imports in the graph (and mark them "type-only") instead of dropping them
    // as the compiled JavaScript would: layering holds for types too, and model/ needs the mark.
    tsPreCompilationDeps: true,
    // `import x from './foo.js'` resolves to foo.ts: dependency-cruiser tries .ts/.tsx/.d.ts for a
    // .js specifier whose .js file does not exist; the tsconfig supplies compiler options.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
