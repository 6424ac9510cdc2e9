// The workflow bundle's entry point: every workflow type the worker hosts.
export { AgentGoalWorkflow } from './agent-goal-workflow';
export { DescribeWorkflow } from './describe-workflows';
