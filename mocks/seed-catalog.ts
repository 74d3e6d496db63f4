// Fixed vocabulary of the sample calendar (people, terms, places, event themes) that seed-data.ts combines.
import type { SeedTerm, SeedUser } from './seed-types.ts';

export const SITE_TIMEZONE = 'America/New_York';

export const USERS: SeedUser[] = [
  { login: 'admin', role: 'administrator', email: 'admin@example.test', name: 'Ada Admin' },
  { login: 'editor', role: 'editor', email: 'editor@example.test', name: 'Eddie Editor' },
  { login: 'author', role: 'author', email: 'author@example.test', name: 'Aurora Author' },
  {
    login: 'contributor',
    role: 'contributor',
    email: 'contributor@example.test',
    name: 'Connor Contributor',
  },
  { login: 'subscriber', role: 'subscriber', email: 'subscriber@example.test', name: 'Sam Subscriber' },
];

/** Event categories; parents before children (`jazz` and `classical` under `music`). */
export const CATEGORIES: SeedTerm[] = [
  { slug: 'music', name: 'Music', description: 'Concerts, gigs and open mics.' },
  { slug: 'theatre', name: 'Theatre', description: 'Plays, musicals and improv.' },
  { slug: 'family', name: 'Family', description: 'Fun for all ages.' },
  { slug: 'sports', name: 'Sports', description: 'Races, matches and classes.' },
  { slug: 'workshops', name: 'Workshops', description: 'Learn something new with your hands.' },
  { slug: 'jazz', name: 'Jazz', description: 'Swing, bebop and big bands.', parent: 'music' },
  { slug: 'classical', name: 'Classical', description: 'Orchestras and chamber music.', parent: 'music' },
];

export const TAGS: SeedTerm[] = [
  { slug: 'free', name: 'Free', description: 'No ticket needed.' },
  { slug: 'outdoor', name: 'Outdoor', description: 'Held outside; bring a jacket.' },
  { slug: 'kids', name: 'Kids', description: 'Made for children.' },
  { slug: 'live', name: 'Live', description: 'Live performance.' },
  { slug: 'beginner', name: 'Beginner', description: 'No experience required.' },
  { slug: 'evening', name: 'Evening', description: 'After work.' },
  { slug: 'weekend', name: 'Weekend', description: 'Saturday or Sunday.' },
  { slug: 'accessible', name: 'Accessible', description: 'Step-free access.' },
  { slug: 'food', name: 'Food', description: 'Food and drinks served.' },
  { slug: 'online', name: 'Online', description: 'Streamed as well.' },
];

export interface VenueInfo {
  name: string;
  address: string;
  city: string;
  /** US state code or non-US province; which one is set depends on `country`. */
  region: string;
  country: string;
  zip: string;
  phone: string;
  website: string;
  /** Where the address is (WGS 84 degrees, rounded to about 10 m), for near-me queries in demo mode. */
  lat: number;
  lng: number;
}

export const VENUES: VenueInfo[] = [
  {
    name: 'Blue Note Hall',
    address: '131 W 3rd St',
    city: 'New York',
    region: 'NY',
    country: 'United States',
    zip: '10012',
    phone: '+1 212 555 0101',
    website: 'https://bluenote.example.test',
    lat: 40.7308,
    lng: -74.0006,
  },
  {
    name: 'Riverside Park Bandshell',
    address: '475 Riverside Dr',
    city: 'New York',
    region: 'NY',
    country: 'United States',
    zip: '10027',
    phone: '+1 212 555 0102',
    website: 'https://riverside.example.test',
    lat: 40.8117,
    lng: -73.9636,
  },
  {
    name: 'Harbor Theatre',
    address: '22 Dock St',
    city: 'Boston',
    region: 'MA',
    country: 'United States',
    zip: '02109',
    phone: '+1 617 555 0103',
    website: 'https://harbortheatre.example.test',
    lat: 42.3601,
    lng: -71.052,
  },
  {
    name: 'Maple Community Center',
    address: '9 Maple Ave',
    city: 'Philadelphia',
    region: 'PA',
    country: 'United States',
    zip: '19103',
    phone: '+1 215 555 0104',
    website: 'https://maplecc.example.test',
    lat: 39.9526,
    lng: -75.1725,
  },
  {
    name: 'Greenfield Stadium',
    address: '1 Stadium Way',
    city: 'Baltimore',
    region: 'MD',
    country: 'United States',
    zip: '21230',
    phone: '+1 410 555 0105',
    website: 'https://greenfield.example.test',
    lat: 39.278,
    lng: -76.6227,
  },
  {
    name: 'The Pottery Barnyard',
    address: '77 Clay Rd',
    city: 'Hudson',
    region: 'NY',
    country: 'United States',
    zip: '12534',
    phone: '+1 518 555 0106',
    website: 'https://potterybarnyard.example.test',
    lat: 42.2529,
    lng: -73.791,
  },
  {
    name: 'Lakeside Pavilion',
    address: '300 Lakeshore Blvd',
    city: 'Chicago',
    region: 'IL',
    country: 'United States',
    zip: '60601',
    phone: '+1 312 555 0107',
    website: 'https://lakeside.example.test',
    lat: 41.8864,
    lng: -87.6186,
  },
  {
    name: 'Sunset Amphitheater',
    address: '6200 Sunset Blvd',
    city: 'Los Angeles',
    region: 'CA',
    country: 'United States',
    zip: '90028',
    phone: '+1 323 555 0108',
    website: 'https://sunsetamp.example.test',
    lat: 34.098,
    lng: -118.3236,
  },
  {
    name: 'Old Mill Library',
    address: '12 Mill St',
    city: 'Burlington',
    region: 'VT',
    country: 'United States',
    zip: '05401',
    phone: '+1 802 555 0109',
    website: 'https://oldmill.example.test',
    lat: 44.4759,
    lng: -73.2121,
  },
  {
    name: 'Queen Street Hall',
    address: '180 Queen St W',
    city: 'Toronto',
    region: 'ON',
    country: 'Canada',
    zip: 'M5V 3X3',
    phone: '+1 416 555 0110',
    website: 'https://queenst.example.test',
    lat: 43.6505,
    lng: -79.388,
  },
  {
    name: 'Sala Castellana',
    address: 'Calle de Alcalá 42',
    city: 'Madrid',
    region: 'Madrid',
    country: 'Spain',
    zip: '28014',
    phone: '+34 91 555 0111',
    website: 'https://salacastellana.example.test',
    lat: 40.4188,
    lng: -3.6979,
  },
  {
    name: 'Teatro del Prado',
    address: 'Paseo del Prado 8',
    city: 'Madrid',
    region: 'Madrid',
    country: 'Spain',
    zip: '28014',
    phone: '+34 91 555 0112',
    website: 'https://teatroprado.example.test',
    lat: 40.4146,
    lng: -3.6932,
  },
  {
    name: 'Union Square Market',
    address: 'E 17th St & Broadway',
    city: 'New York',
    region: 'NY',
    country: 'United States',
    zip: '10003',
    phone: '+1 212 555 0113',
    website: 'https://unionmarket.example.test',
    lat: 40.7359,
    lng: -73.9906,
  },
  {
    name: 'Secret Loft',
    address: '5 Hidden Ln',
    city: 'Brooklyn',
    region: 'NY',
    country: 'United States',
    zip: '11201',
    phone: '+1 718 555 0114',
    website: 'https://secretloft.example.test',
    lat: 40.6943,
    lng: -73.9903,
  },
  {
    name: 'Unfinished Warehouse',
    address: '400 Industrial Pkwy',
    city: 'Newark',
    region: 'NJ',
    country: 'United States',
    zip: '07105',
    phone: '+1 973 555 0115',
    website: 'https://warehouse.example.test',
    lat: 40.7245,
    lng: -74.154,
  },
];
/** Index into VENUES of the password-protected venue and of the draft one. */
export const PROTECTED_VENUE = 13;
export const DRAFT_VENUE = 14;

export interface OrganizerInfo {
  name: string;
  phone: string;
  website: string;
  email: string;
}

export const ORGANIZERS: OrganizerInfo[] = [
  {
    name: 'City Arts Council',
    phone: '+1 212 555 0201',
    website: 'https://cityarts.example.test',
    email: 'hello@cityarts.example.test',
  },
  {
    name: 'Jazz Collective NYC',
    phone: '+1 212 555 0202',
    website: 'https://jazzcollective.example.test',
    email: 'gigs@jazzcollective.example.test',
  },
  {
    name: 'Little Stage Company',
    phone: '+1 617 555 0203',
    website: 'https://littlestage.example.test',
    email: 'box@littlestage.example.test',
  },
  {
    name: 'Family Fun Network',
    phone: '+1 215 555 0204',
    website: 'https://familyfun.example.test',
    email: 'info@familyfun.example.test',
  },
  {
    name: 'Runners Club',
    phone: '+1 410 555 0205',
    website: 'https://runners.example.test',
    email: 'race@runners.example.test',
  },
  {
    name: 'Makers Guild',
    phone: '+1 518 555 0206',
    website: 'https://makers.example.test',
    email: 'guild@makers.example.test',
  },
  {
    name: 'Orquesta de Madrid',
    phone: '+34 91 555 0207',
    website: 'https://orquesta.example.test',
    email: 'info@orquesta.example.test',
  },
  {
    name: 'West Coast Promotions',
    phone: '+1 323 555 0208',
    website: 'https://westcoast.example.test',
    email: 'book@westcoast.example.test',
  },
  {
    name: 'Library Friends',
    phone: '+1 802 555 0209',
    website: 'https://libraryfriends.example.test',
    email: 'friends@library.example.test',
  },
  {
    name: 'Pending Partners',
    phone: '+1 973 555 0210',
    website: 'https://pending.example.test',
    email: 'tbd@pending.example.test',
  },
];
/** Index into ORGANIZERS of the draft organizer. */
export const DRAFT_ORGANIZER = 9;

export interface Theme {
  /** `{venue}` is replaced by the venue name (or "Town" when the event has none). */
  title: string;
  category: string;
  tags: string[];
  /** Index into ORGANIZERS of the usual organizer. */
  organizer: number;
  blurb: string;
}

export const THEMES: Theme[] = [
  {
    title: 'Jazz Night at {venue}',
    category: 'jazz',
    tags: ['live', 'evening'],
    organizer: 1,
    blurb: 'A swinging evening of jazz standards and improvisation with a rotating house trio.',
  },
  {
    title: 'Big Band Swing Dance',
    category: 'jazz',
    tags: ['live', 'evening', 'beginner'],
    organizer: 1,
    blurb: 'Dance the night away to a sixteen-piece big band; free lesson at the start.',
  },
  {
    title: 'Symphony Under the Stars',
    category: 'classical',
    tags: ['outdoor', 'live', 'free'],
    organizer: 6,
    blurb: 'Beethoven and Dvořák played by a full orchestra on the lawn.',
  },
  {
    title: 'String Quartet Matinee',
    category: 'classical',
    tags: ['live', 'weekend'],
    organizer: 6,
    blurb: 'Haydn and Ravel in an intimate afternoon concert.',
  },
  {
    title: 'Open Mic Music Session',
    category: 'music',
    tags: ['live', 'free', 'evening'],
    organizer: 0,
    blurb: 'Bring your guitar, your voice or your ukulele; everyone gets two songs.',
  },
  {
    title: 'Shakespeare in the Park: Twelfth Night',
    category: 'theatre',
    tags: ['outdoor', 'free'],
    organizer: 2,
    blurb: 'A midsummer comedy of mistaken identity, shipwrecks and love letters.',
  },
  {
    title: 'Improv Comedy Showdown',
    category: 'theatre',
    tags: ['evening', 'food'],
    organizer: 2,
    blurb: 'Two teams, your suggestions, no script and a lot of laughter.',
  },
  {
    title: 'Family Science Fair',
    category: 'family',
    tags: ['kids', 'free', 'weekend'],
    organizer: 3,
    blurb: 'Volcanoes, robots and slime: hands-on experiments for curious kids.',
  },
  {
    title: 'Puppet Theatre for Kids',
    category: 'family',
    tags: ['kids', 'weekend'],
    organizer: 3,
    blurb: 'Handmade puppets tell the story of the brave little lighthouse.',
  },
  {
    title: 'Storytime at {venue}',
    category: 'family',
    tags: ['kids', 'free', 'accessible'],
    organizer: 8,
    blurb: 'Picture books read aloud, followed by a craft corner.',
  },
  {
    title: 'City Marathon 10K Fun Run',
    category: 'sports',
    tags: ['outdoor', 'weekend'],
    organizer: 4,
    blurb: 'A flat, fast course along the river; medals for every finisher.',
  },
  {
    title: 'Sunrise Yoga by the Lake',
    category: 'sports',
    tags: ['outdoor', 'beginner', 'free'],
    organizer: 4,
    blurb: 'Gentle flow yoga as the sun comes up; mats provided.',
  },
  {
    title: 'Pottery Workshop for Beginners',
    category: 'workshops',
    tags: ['beginner', 'weekend'],
    organizer: 5,
    blurb: 'Learn to throw a bowl on the wheel and glaze it to take home.',
  },
  {
    title: 'Woodworking Basics Workshop',
    category: 'workshops',
    tags: ['beginner', 'accessible'],
    organizer: 5,
    blurb: 'Measure twice, cut once: build a small cutting board.',
  },
  {
    title: 'Photography Walk and Workshop',
    category: 'workshops',
    tags: ['outdoor', 'online'],
    organizer: 0,
    blurb: 'Street photography tips on a guided walk through the old town.',
  },
  {
    title: 'Farmers Market Food Festival',
    category: 'family',
    tags: ['food', 'outdoor', 'free'],
    organizer: 0,
    blurb: 'Local growers, street food and live folk music all day.',
  },
  {
    title: 'Flamenco Night at {venue}',
    category: 'music',
    tags: ['live', 'evening'],
    organizer: 6,
    blurb: 'Guitar, cante and baile from Andalusian masters.',
  },
  {
    title: 'Sunset Rock Concert',
    category: 'music',
    tags: ['live', 'outdoor', 'evening'],
    organizer: 7,
    blurb: 'Three bands, one stage and the sunset behind the hills.',
  },
];
