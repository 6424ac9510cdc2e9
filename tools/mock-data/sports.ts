// Offline Premier League data for the match-and-trains goal: 20 clubs and a full season of fixtures, generated
// deterministically (a double round robin, weekly, with international breaks) around the demo day: fifteen weeks
// played, the rest to come. Mock data: not the real fixture list.
import { addDays as addIsoDays, weekdayOf } from '../../core/days';
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export interface Team {
  name: string;
  short: string;
  aliases: string[];
  venue: string;
  city: string;
  /** The main-line station fans travel to (a name the train service knows). */
  station: string;
}

export interface Fixture {
  id: string;
  matchday: number;
  date: string;
  kickoff: string;
  home: string;
  away: string;
  venue: string;
  city: string;
  nearestStation: string;
}

const TEAMS: Team[] = [
  team('Arsenal', 'ARS', [], 'Emirates Stadium', 'London', "London King's Cross"),
  team('Aston Villa', 'AVL', ['Villa'], 'Villa Park', 'Birmingham', 'Birmingham New Street'),
  team('AFC Bournemouth', 'BOU', ['Bournemouth'], 'Vitality Stadium', 'Bournemouth', 'Bournemouth'),
  team('Brentford', 'BRE', [], 'Gtech Community Stadium', 'London', 'London Waterloo'),
  team('Brighton & Hove Albion', 'BHA', ['Brighton'], 'Amex Stadium', 'Brighton', 'Brighton'),
  team('Burnley', 'BUR', [], 'Turf Moor', 'Burnley', 'Burnley Manchester Road'),
  team('Chelsea', 'CHE', [], 'Stamford Bridge', 'London', 'London Euston'),
  team('Crystal Palace', 'CRY', ['Palace'], 'Selhurst Park', 'London', 'London Victoria'),
  team('Everton', 'EVE', [], 'Hill Dickinson Stadium', 'Liverpool', 'Liverpool Lime Street'),
  team('Fulham', 'FUL', [], 'Craven Cottage', 'London', 'London Euston'),
  team('Leeds United', 'LEE', ['Leeds'], 'Elland Road', 'Leeds', 'Leeds'),
  team('Liverpool', 'LIV', [], 'Anfield', 'Liverpool', 'Liverpool Lime Street'),
  team('Manchester City', 'MCI', ['Man City', 'City'], 'Etihad Stadium', 'Manchester', 'Manchester Piccadilly'),
  team(
    'Manchester United',
    'MUN',
    ['Man United', 'Man Utd', 'United'],
    'Old Trafford',
    'Manchester',
    'Manchester Piccadilly',
  ),
  team('Newcastle United', 'NEW', ['Newcastle'], "St James' Park", 'Newcastle', 'Newcastle'),
  team('Nottingham Forest', 'NFO', ['Forest', 'Nottingham'], 'City Ground', 'Nottingham', 'Nottingham'),
  team('Sunderland', 'SUN', [], 'Stadium of Light', 'Sunderland', 'Sunderland'),
  team(
    'Tottenham Hotspur',
    'TOT',
    ['Tottenham', 'Spurs'],
    'Tottenham Hotspur Stadium',
    'London',
    'London Liverpool Street',
  ),
  team('West Ham United', 'WHU', ['West Ham'], 'London Stadium', 'London', 'London Liverpool Street'),
  team(
    'Wolverhampton Wanderers',
    'WOL',
    ['Wolves', 'Wolverhampton'],
    'Molineux Stadium',
    'Wolverhampton',
    'Wolverhampton',
  ),
];

function team(name: string, short: string, aliases: string[], venue: string, city: string, station: string): Team {
  return { name, short, aliases, venue, city, station };
}

/** The season starts on a Saturday this many weeks before the demo day, so about six months of it are still to come. */
const WEEKS_PLAYED = 15;
/** Weeks after the first Saturday with no league games (international breaks). */
const BREAKS = new Set([2, 7, 12, 31]);
/** Matchdays played midweek (Tuesday and Wednesday after the weekend's), so the season ends in May. */
const MIDWEEK = new Set([15, 20, 26]);
/** Slot k of a matchday: days after the Saturday, and kickoff time. */
const SLOTS: [number, string][] = [
  [0, '12:30'],
  [0, '15:00'],
  [0, '15:00'],
  [0, '15:00'],
  [0, '15:00'],
  [0, '15:00'],
  [0, '17:30'],
  [1, '14:00'],
  [1, '16:30'],
  [2, '20:00'],
];
const MIDWEEK_SLOTS: [number, string][] = [
  [3, '19:30'],
  [3, '19:30'],
  [3, '19:30'],
  [3, '20:00'],
  [3, '20:00'],
  [4, '19:30'],
  [4, '19:30'],
  [4, '19:30'],
  [4, '20:00'],
  [4, '20:00'],
];

/** A double round robin by the circle method: every club plays every other at home and away. */
function season(teams: Team[], demoDay: string): Fixture[] {
  const start = new Date(`${addIsoDays(demoDay, -((weekdayOf(demoDay) + 1) % 7) - 7 * WEEKS_PLAYED)}T00:00:00Z`);
  const breaks = new Set([...BREAKS].map((week) => day(addDays(start, 7 * week))));
  const n = teams.length;
  const order = teams.map((_, i) => i);
  const firstHalf: [number, number][][] = [];
  for (let round = 0; round < n - 1; round++) {
    const pairs: [number, number][] = [];
    for (let k = 0; k < n / 2; k++) {
      const a = order[k]!;
      const b = order[n - 1 - k]!;
      // Top row at home in even rounds, bottom row in odd ones: clubs mostly alternate home and away.
      pairs.push(round % 2 === 0 ? [a, b] : [b, a]);
    }
    firstHalf.push(pairs);
    order.splice(1, 0, order.pop()!); // rotate all but the first
  }
  const rounds = [...firstHalf, ...firstHalf.map((pairs) => pairs.map(([h, a]): [number, number] => [a, h]))];
  const fixtures: Fixture[] = [];
  let saturday = start;
  rounds.forEach((pairs, r) => {
    const midweek = MIDWEEK.has(r + 1);
    // A midweek round follows the previous weekend's; otherwise the next Saturday that is not a break.
    if (midweek) saturday = addDays(saturday, -7);
    else while (breaks.has(day(saturday))) saturday = addDays(saturday, 7);
    pairs.forEach(([h, a], k) => {
      const home = teams[h]!;
      const away = teams[a]!;
      const [offset, kickoff] = (midweek ? MIDWEEK_SLOTS : SLOTS)[k % SLOTS.length]!;
      fixtures.push({
        id: `PL-${r + 1}-${home.short}-${away.short}`,
        matchday: r + 1,
        date: day(addDays(saturday, offset)),
        kickoff,
        home: home.name,
        away: away.name,
        venue: home.venue,
        city: home.city,
        nearestStation: home.station,
      });
    });
    saturday = addDays(saturday, 7);
  });
  return fixtures.sort((x, y) => `${x.date} ${x.kickoff}`.localeCompare(`${y.date} ${y.kickoff}`));
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export const teams = (store: MockStore) => seeded(store, 'sports.teams', TEAMS);
export const fixtures = (store: MockStore) => seeded(store, 'sports.fixtures', (day) => season(TEAMS, day));
