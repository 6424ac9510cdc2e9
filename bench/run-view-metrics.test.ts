// The dev server's request counts as the run-view benchmark reads them from a Prometheus scrape.
import { frontendRequests } from './run-view-metrics';

describe('frontendRequests', () => {
  it("sums the frontend's service_requests by operation over namespaces, leaving other services and metrics out", () => {
    const scrape = [
      '# HELP service_requests service_requests counter',
      '# TYPE service_requests counter',
      'service_requests{namespace="default",operation="PollWorkflowExecutionHistory",service_name="frontend"} 147',
      'service_requests{namespace="default",operation="PollWorkflowExecutionHistory",service_name="history"} 147',
      'service_requests{namespace="default",operation="DescribeWorkflowExecution",service_name="frontend"} 9',
      'service_requests{namespace="temporal_system",operation="DescribeWorkflowExecution",service_name="frontend"} 2',
      'service_latency_count{namespace="default",operation="QueryWorkflow",service_name="frontend"} 5',
    ].join('\n');
    expect(frontendRequests(scrape)).toEqual({ PollWorkflowExecutionHistory: 147, DescribeWorkflowExecution: 11 });
  });
});
