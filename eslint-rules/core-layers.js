// The layers inside the core (src/main/core), as VS Code's `code-layering` rule orders its own:
// a module imports only its own layer and the layers below it. The root (`engine.ts`, which
// builds an account's engine, `core.ts` and the app-level modules beside them, `accounts/`)
// sees all. Test files are left out (a sync test may build an outbox to talk to).
import { dirname, relative, resolve, sep } from 'node:path';

/** Layers from the bottom up; a layer's modules may import those of the layers before it. */
export const CORE_LAYERS = [
  // Leaf modules: types and errors any layer uses; they import nothing of the core.
  {
    name: 'leaf',
    rank: 0,
    files: ['errors.ts', 'local-ids.ts', 'listeners.ts', 'loop-turns.ts', 'wait-at-most.ts'],
  },
  { name: 'api', rank: 1, folder: 'api' },
  { name: 'cache', rank: 1, folder: 'cache' },
  { name: 'attachments', rank: 2, folder: 'attachments' },
  { name: 'sync', rank: 2, folder: 'sync' },
  // One descriptor per resource: its cache tables, fetch, pull parts, "take theirs".
  { name: 'entities', rank: 3, folder: 'entities' },
  { name: 'outbox', rank: 4, folder: 'outbox' },
  { name: 'handlers', rank: 5, folder: 'handlers' },
];
const ROOT = { name: 'root', rank: 6 };

const ORDER =
  'leaf < api, cache < attachments, sync < entities < outbox < handlers < root (engine.ts, core.ts)';

/** The layer of a path relative to src/main/core, or undefined outside the core. */
function layerOf(inCore) {
  if (inCore.startsWith('..') || inCore === '') return undefined;
  const [first, ...rest] = inCore.split(sep);
  for (const layer of CORE_LAYERS) {
    // A folder's modules, and the folder itself (its index).
    if (layer.folder && first === layer.folder) return layer;
    if (layer.files && !rest.length && layer.files.includes(withTs(first))) return layer;
  }
  return ROOT;
}

/** An import names a module without its extension. */
function withTs(name) {
  return /\.[cm]?[jt]s$/.test(name) ? name : `${name}.ts`;
}

/** @type {import('eslint').Rule.RuleModule} */
export const coreLayers = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Orders the layers inside src/main/core: a module imports only its layer and those below.',
    },
    messages: {
      upward: "`{{from}}` may not import `{{to}}` ({{source}}): the core's layers run " + ORDER + '.',
    },
    schema: [{ type: 'object', properties: { coreDir: { type: 'string' } }, additionalProperties: false }],
  },
  create(context) {
    const coreDir = resolve(context.cwd, context.options[0]?.coreDir ?? 'src/main/core');
    const from = layerOf(relative(coreDir, context.filename));
    if (!from || from === ROOT) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const to = layerOf(relative(coreDir, resolve(dirname(context.filename), source.value)));
      if (!to || to === from) return;
      if (to.rank < from.rank) return;
      context.report({
        node: source,
        messageId: 'upward',
        data: { from: from.name, to: to.name, source: source.value },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
