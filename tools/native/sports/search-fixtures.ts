import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { fixtures, teams, type Team } from '../../mock-data/sports';

export default defineTool({
  name: 'SearchFixtures',
  description:
    'Search Premier League fixtures (this season) by team and/or month. Each fixture has its date, kickoff (UK ' +
    'time), venue, city and the main-line station nearest the ground, for planning the trip.',
  category: 'sports',
  approval: 'never',
  readOnly: true,
  input: z.object({
    team: z.string().optional().describe('A club, e.g. "Liverpool", "Man City", "Spurs"; omit for every club'),
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/, 'a month as YYYY-MM')
      .optional()
      .describe('Month as YYYY-MM; omit for the whole season'),
  }),
  run({ team, month }, ctx) {
    if (!team && !month) throw new ToolError('Give a team, a month (YYYY-MM), or both.');
    const club = team ? findTeam(teams(ctx.store), team) : undefined;
    const season = fixtures(ctx.store);
    const found = season
      .filter((f) => !club || f.home === club.name || f.away === club.name)
      .filter((f) => !month || f.date.startsWith(month));
    const limit = 40;
    return {
      competition: `Premier League ${season[0]!.date.slice(0, 4)}/${season[season.length - 1]!.date.slice(2, 4)}`,
      ...(club ? { team: club.name } : {}),
      ...(month ? { month } : {}),
      count: found.length,
      fixtures: found.slice(0, limit).map((f) => ({
        ...f,
        label: `${f.home} v ${f.away}, ${f.date} ${f.kickoff} at ${f.venue} (${f.city})`,
      })),
      ...(found.length > limit ? { note: `Showing the first ${limit}; narrow by team or month.` } : {}),
    };
  },
});

function findTeam(all: Team[], text: string): Team {
  const t = text.trim().toLowerCase();
  const exact = all.find((c) => [c.name, c.short, ...c.aliases].some((n) => n.toLowerCase() === t));
  if (exact) return exact;
  const partial = all.filter((c) => c.name.toLowerCase().includes(t));
  if (partial.length === 1) return partial[0]!;
  if (partial.length > 1)
    throw new ToolError(`"${text}" could be ${partial.map((c) => c.name).join(' or ')}: which one?`);
  throw new ToolError(`No Premier League club "${text}". Clubs: ${all.map((c) => c.name).join(', ')}.`);
}
