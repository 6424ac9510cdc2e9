// The workflow bundle's entry point: every workflow type the worker hosts.
export { AgentGoalWorkflow } from './agent-goal-workflow';
export { DescribeAgentsWorkflow, DescribeCatalogWorkflow } from './describe-workflows';
