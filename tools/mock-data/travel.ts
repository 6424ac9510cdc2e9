// Offline travel data for the events-and-flights goal: yearly events in Australia and New Zealand, and the airports
// the mock flight search knows. Seeded per store, so each worker (and each test) starts from these.
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export interface Airport {
  code: string;
  city: string;
  country: string;
  lat: number;
  lon: number;
  /** Hours from UTC, standard time (the mock ignores daylight saving). */
  utcOffset: number;
}

/** An event that happens every year: months are 1-12, days of the month. */
export interface YearlyEvent {
  id: string;
  name: string;
  city: string;
  country: 'Australia' | 'New Zealand';
  venue: string;
  start: { month: number; day: number };
  end: { month: number; day: number };
  description: string;
  /** IATA code of the airport to fly into. */
  airport: string;
  /** Cheapest ticket, in the local currency. */
  ticketFrom: number;
  currency: 'AUD' | 'NZD';
}

const AIRPORTS: Airport[] = [
  { code: 'SYD', city: 'Sydney', country: 'Australia', lat: -33.94, lon: 151.18, utcOffset: 10 },
  { code: 'MEL', city: 'Melbourne', country: 'Australia', lat: -37.67, lon: 144.84, utcOffset: 10 },
  { code: 'BNE', city: 'Brisbane', country: 'Australia', lat: -27.38, lon: 153.12, utcOffset: 10 },
  { code: 'PER', city: 'Perth', country: 'Australia', lat: -31.94, lon: 115.97, utcOffset: 8 },
  { code: 'ADL', city: 'Adelaide', country: 'Australia', lat: -34.95, lon: 138.53, utcOffset: 9.5 },
  { code: 'HBA', city: 'Hobart', country: 'Australia', lat: -42.84, lon: 147.51, utcOffset: 10 },
  { code: 'AKL', city: 'Auckland', country: 'New Zealand', lat: -37.01, lon: 174.79, utcOffset: 12 },
  { code: 'WLG', city: 'Wellington', country: 'New Zealand', lat: -41.33, lon: 174.81, utcOffset: 12 },
  { code: 'CHC', city: 'Christchurch', country: 'New Zealand', lat: -43.49, lon: 172.53, utcOffset: 12 },
  { code: 'ZQN', city: 'Queenstown', country: 'New Zealand', lat: -45.02, lon: 168.74, utcOffset: 12 },
  // Where travellers come from.
  { code: 'LAX', city: 'Los Angeles', country: 'United States', lat: 33.94, lon: -118.41, utcOffset: -8 },
  { code: 'SFO', city: 'San Francisco', country: 'United States', lat: 37.62, lon: -122.38, utcOffset: -8 },
  { code: 'JFK', city: 'New York', country: 'United States', lat: 40.64, lon: -73.78, utcOffset: -5 },
  { code: 'LHR', city: 'London', country: 'United Kingdom', lat: 51.47, lon: -0.45, utcOffset: 0 },
  { code: 'SIN', city: 'Singapore', country: 'Singapore', lat: 1.36, lon: 103.99, utcOffset: 8 },
  { code: 'NRT', city: 'Tokyo', country: 'Japan', lat: 35.77, lon: 140.39, utcOffset: 9 },
  { code: 'YVR', city: 'Vancouver', country: 'Canada', lat: 49.19, lon: -123.18, utcOffset: -8 },
];

// Mock data: real festivals, approximate dates and prices.
const EVENTS: YearlyEvent[] = [
  ev(
    'syd-festival',
    'Sydney Festival',
    'Sydney',
    'Australia',
    'Venues across Sydney',
    [1, 8],
    [1, 26],
    'Three weeks of theatre, music and dance across the city.',
    'SYD',
    35,
  ),
  ev(
    'syd-mardi-gras',
    'Sydney Gay and Lesbian Mardi Gras',
    'Sydney',
    'Australia',
    'Oxford Street',
    [2, 14],
    [3, 2],
    'Parade, parties and a festival of LGBTQIA+ arts.',
    'SYD',
    0,
  ),
  ev(
    'vivid-sydney',
    'Vivid Sydney',
    'Sydney',
    'Australia',
    'Circular Quay and the Opera House',
    [5, 22],
    [6, 13],
    'Light installations, music and ideas after dark.',
    'SYD',
    0,
  ),
  ev(
    'aus-open',
    'Australian Open',
    'Melbourne',
    'Australia',
    'Melbourne Park',
    [1, 12],
    [1, 31],
    'The first tennis Grand Slam of the year.',
    'MEL',
    59,
  ),
  ev(
    'mfwf',
    'Melbourne Food and Wine Festival',
    'Melbourne',
    'Australia',
    'Venues across Victoria',
    [3, 13],
    [3, 22],
    "Ten days of dinners, tastings and markets in Australia's food capital.",
    'MEL',
    25,
  ),
  ev(
    'micf',
    'Melbourne International Comedy Festival',
    'Melbourne',
    'Australia',
    'Melbourne Town Hall',
    [3, 25],
    [4, 19],
    'One of the three biggest comedy festivals in the world.',
    'MEL',
    30,
  ),
  ev(
    'melbourne-cup',
    'Melbourne Cup Carnival',
    'Melbourne',
    'Australia',
    'Flemington Racecourse',
    [11, 1],
    [11, 8],
    'The race that stops a nation, and a week of racing around it.',
    'MEL',
    75,
  ),
  ev(
    'brisbane-festival',
    'Brisbane Festival',
    'Brisbane',
    'Australia',
    'South Bank',
    [9, 5],
    [9, 26],
    'Three weeks of performances ending with Riverfire fireworks.',
    'BNE',
    20,
  ),
  ev(
    'perth-festival',
    'Perth Festival',
    'Perth',
    'Australia',
    'Venues across Perth',
    [2, 7],
    [3, 1],
    "Western Australia's festival of music, theatre, film and art.",
    'PER',
    30,
  ),
  ev(
    'adelaide-fringe',
    'Adelaide Fringe',
    'Adelaide',
    'Australia',
    'Garden of Unearthly Delights',
    [2, 20],
    [3, 22],
    "The southern hemisphere's largest open-access arts festival.",
    'ADL',
    20,
  ),
  ev(
    'womadelaide',
    'WOMADelaide',
    'Adelaide',
    'Australia',
    'Botanic Park',
    [3, 6],
    [3, 9],
    'Four days of world music in the park.',
    'ADL',
    129,
  ),
  ev(
    'dark-mofo',
    'Dark Mofo',
    'Hobart',
    'Australia',
    'Mona and venues across Hobart',
    [6, 5],
    [6, 22],
    'A winter solstice festival of art, music and fire.',
    'HBA',
    45,
  ),
  ev(
    'lantern-festival',
    'Auckland Lantern Festival',
    'Auckland',
    'New Zealand',
    'Auckland Showgrounds',
    [2, 20],
    [2, 23],
    'Lunar new year lanterns, food stalls and performances.',
    'AKL',
    0,
  ),
  ev(
    'pasifika',
    'Pasifika Festival',
    'Auckland',
    'New Zealand',
    'Western Springs Park',
    [3, 14],
    [3, 15],
    'The largest Pacific Island cultural festival in the world.',
    'AKL',
    0,
  ),
  ev(
    'wellington-on-a-plate',
    'Visa Wellington On a Plate',
    'Wellington',
    'New Zealand',
    'Restaurants across Wellington',
    [8, 1],
    [8, 24],
    'A month of festival dishes, burgers and events.',
    'WLG',
    30,
  ),
  ev(
    'wow',
    'World of WearableArt',
    'Wellington',
    'New Zealand',
    'TSB Arena',
    [9, 25],
    [10, 12],
    'A spectacular show of wearable art from around the world.',
    'WLG',
    95,
  ),
  ev(
    'chc-buskers',
    'World Buskers Festival',
    'Christchurch',
    'New Zealand',
    'Hagley Park and city streets',
    [1, 16],
    [1, 26],
    'Street performers from around the world.',
    'CHC',
    0,
  ),
  ev(
    'qt-winter',
    'Queenstown Winter Festival',
    'Queenstown',
    'New Zealand',
    'Earnslaw Park',
    [6, 19],
    [6, 22],
    'Four days of winter madness: comedy, music and on-snow events.',
    'ZQN',
    0,
  ),
];

function ev(
  id: string,
  name: string,
  city: string,
  country: YearlyEvent['country'],
  venue: string,
  start: [number, number],
  end: [number, number],
  description: string,
  airport: string,
  ticketFrom: number,
): YearlyEvent {
  return {
    id,
    name,
    city,
    country,
    venue,
    description,
    airport,
    ticketFrom,
    start: { month: start[0], day: start[1] },
    end: { month: end[0], day: end[1] },
    currency: country === 'Australia' ? 'AUD' : 'NZD',
  };
}

export const airports = (store: MockStore) => seeded(store, 'travel.airports', AIRPORTS);
export const yearlyEvents = (store: MockStore) => seeded(store, 'travel.events', EVENTS);

/** An airport by IATA code or city name (case-insensitive). */
export function findAirport(store: MockStore, codeOrCity: string): Airport | undefined {
  const key = codeOrCity.trim().toLowerCase();
  return airports(store).find((a) => a.code.toLowerCase() === key || a.city.toLowerCase() === key);
}
