// The workflow bundle's entry point: every workflow type the worker hosts.
export { AgentGoalWorkflow } from './agent-goal-workflow';
export { DescribeCatalogWorkflow } from './catalog-workflow';
