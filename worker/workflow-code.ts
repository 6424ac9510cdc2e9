// The workflow code, as every bundle of it is made (the build's two bundles, a worker run from source, the tests, the
// bench): its entry, and the modules every workflow of a worker shares. Temporal runs all of a worker's workflows in
// one V8 context (reuseV8Context) and, by default, loads the bundle's modules afresh for each workflow: every cached
// conversation held its own copy of every function, class and constant of the workflow code (~75 KB each, about half
// of its heap; bench/README.md, "Memory per cached conversation"). Preloaded, they are loaded once per worker, before
// any workflow, and shared; the SDK freezes them. That holds because the workflow code keeps no state at module level
// (test/unit/workflow-module-state.test.ts): a conversation's state lives in its Conversation, and what must be per
// workflow beyond it lives in the workflow's globals, which Temporal keeps per workflow (workflows/turn-trace.ts).
import path from 'node:path';

export const WORKFLOWS_PATH = require.resolve(path.join(__dirname, '..', 'workflows'));

/** For bundleWorkflowCode (with a logger, and the tracing interceptors for the traced bundle). */
export const WORKFLOW_BUNDLE_OPTIONS = { workflowsPath: WORKFLOWS_PATH, preloadModules: [WORKFLOWS_PATH] };
