import { mcpToolName } from '../../endpoints/tool-names';
import { globMatch } from '../../core/naming';
import { parseRegistry, resolveEndpoint } from '../../endpoints/endpoint-registry';

describe('MCP registry parsing', () => {
  it('accepts the Claude Desktop / Cursor shape with our extension fields, filling defaults', () => {
    const { endpoints, hash } = parseRegistry(
      JSON.stringify({
        mcpServers: {
          local: { command: 'npx', args: ['-y', 'srv'], env: { TOKEN: '${env:TOKEN}' } },
          remote: {
            url: 'https://h/mcp',
            headers: { Authorization: 'Bearer ${env:T}' },
            categories: ['finance'],
            requireApproval: 'destructive',
          },
        },
      }),
    );
    expect(endpoints.local).toMatchObject({ enabled: true, includeTools: ['*'], excludeTools: [], timeoutMs: 30_000 });
    expect(endpoints.remote).toMatchObject({ categories: ['finance'], requireApproval: 'destructive' });
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('names the server and the field of every problem', () => {
    const bad = JSON.stringify({
      mcpServers: {
        a: { command: 1 },
        b: { url: 'x', requireApproval: 'sometimes' },
        c: { command: 'x', colour: 'red' },
        'bad name!': { command: 'x' },
      },
    });
    expect(() => parseRegistry(bad)).toThrow(/server "a": command: .*string/);
    expect(() => parseRegistry(bad)).toThrow(/server "b": requireApproval/);
    expect(() => parseRegistry(bad)).toThrow(/server "c": .*colour/);
    expect(() => parseRegistry(bad)).toThrow(/server "bad name!": the name must be/);
    expect(() => parseRegistry('{ nope')).toThrow(/not valid JSON/);
    expect(() => parseRegistry('{"servers": {}}')).toThrow(/expected \{ "mcpServers"/);
  });

  it("resolves ${env:…} only when asked, names missing variables, and lists the values for the worker's scrubber", () => {
    const { endpoints } = parseRegistry(
      JSON.stringify({
        mcpServers: { r: { url: 'https://h/${env:PATHPART}', headers: { A: 'Bearer ${env:TOKEN}' } } },
      }),
    );
    expect(JSON.stringify(endpoints.r)).toContain('${env:TOKEN}');
    expect(() => resolveEndpoint('r', endpoints.r!, { PATHPART: 'mcp' })).toThrow(/TOKEN/);
    const resolved = resolveEndpoint('r', endpoints.r!, { PATHPART: 'mcp', TOKEN: 'sekrit-123' });
    expect(resolved.resolved).toMatchObject({ url: 'https://h/mcp', headers: { A: 'Bearer sekrit-123' } });
    expect(resolved.secrets).toEqual(['mcp', 'sekrit-123']);
    // Same definition → same pooled session; a changed secret → a new one.
    expect(resolveEndpoint('r', endpoints.r!, { PATHPART: 'mcp', TOKEN: 'sekrit-123' }).key).toBe(resolved.key);
    expect(resolveEndpoint('r', endpoints.r!, { PATHPART: 'mcp', TOKEN: 'other-456' }).key).not.toBe(resolved.key);
  });
});

describe('MCP tool naming', () => {
  it('joins server and tool, sanitised for every provider', () => {
    expect(mcpToolName('fx', 'convert', new Set())).toBe('fx__convert');
    expect(mcpToolName('my.server', 'get rates/v2', new Set())).toBe('my_server__get_rates_v2');
  });
  it('adds a deterministic suffix on truncation or collision', () => {
    const long = mcpToolName('server', 'x'.repeat(80), new Set());
    expect(long).toHaveLength(64);
    expect(long).toBe(mcpToolName('server', 'x'.repeat(80), new Set()));
    const taken = new Set<string>();
    const a = mcpToolName('a.b', 'c', taken);
    const b = mcpToolName('a_b', 'c', taken);
    expect(a).toBe('a_b__c');
    expect(b).toMatch(/^a_b__c_[0-9a-f]{6}$/);
  });
  it('matches globs', () => {
    expect(globMatch('read_*', 'read_text_file')).toBe(true);
    expect(globMatch('fx/*', 'fx/convert')).toBe(true);
    expect(globMatch('fx/*', 'fxx/convert')).toBe(false);
    expect(globMatch('a.b', 'axb')).toBe(false);
  });
});
