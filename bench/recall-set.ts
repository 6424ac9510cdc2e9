// The recall part's held-out set: 50 facts a user would tell an HR/PTO, travel or shopping agent, each with the
// question a user would later ask for it, in their own words rather than the fact's (an honest test of what a
// full-text search finds, not a copy of the fact), and the answer, which the fact holds and the question never
// names. Written for the bench; no ranking was tuned on it.

export interface HeldOutFact {
  fact: string;
  question: string;
  /** What the question asks for: in the fact, never in the question (recall-set.test.ts). */
  answer: string;
}

export const RECALL_SET: readonly HeldOutFact[] = [
  // Work, HR and time off.
  { fact: 'My manager is Priya Raman.', question: 'Who do I report to?', answer: 'Priya Raman' },
  {
    fact: 'I prefer to take Fridays off.',
    question: 'Which day of the week do I usually like to have free?',
    answer: 'Fridays',
  },
  {
    fact: 'My work email is dana.okafor@example.com.',
    question: 'What address should HR use to reach me?',
    answer: 'dana.okafor@example.com',
  },
  { fact: 'I work in the Lisbon office.', question: 'Where am I based?', answer: 'Lisbon' },
  { fact: 'My employee number is 48213.', question: "What's my staff ID?", answer: '48213' },
  {
    fact: "I'm on the payments platform team.",
    question: 'Which group do I belong to at the company?',
    answer: 'payments platform',
  },
  {
    fact: 'My skip-level manager is Tomasz Nowak, the VP of engineering.',
    question: "Who is my boss's boss?",
    answer: 'Tomasz Nowak',
  },
  {
    fact: 'Copy my team lead, Aisha Bello, on every time-off request.',
    question: "Who needs to be cc'd when I ask for leave?",
    answer: 'Aisha Bello',
  },
  {
    fact: 'I work four days a week, Monday to Thursday.',
    question: 'What does my usual working schedule look like?',
    answer: 'Monday to Thursday',
  },
  {
    fact: 'My HR business partner is Kenji Watanabe.',
    question: "Who's my contact in people operations?",
    answer: 'Kenji Watanabe',
  },
  {
    fact: 'I can carry over up to five unused vacation days.',
    question: 'How much untaken leave may roll into next year?',
    answer: 'five',
  },
  {
    fact: 'I take two weeks off every August to visit family in Ghana.',
    question: 'What do I normally do in the summer holidays?',
    answer: 'Ghana',
  },
  { fact: 'My salary is paid into my account at Nordbank.', question: 'Where does my pay go?', answer: 'Nordbank' },
  { fact: "I'm a senior data engineer.", question: "What's my job title?", answer: 'senior data engineer' },
  {
    fact: 'I need a standing desk because of my back.',
    question: 'Is there any office equipment I require for health reasons?',
    answer: 'standing desk',
  },
  {
    fact: 'My desk is on the fourth floor near the east stairwell.',
    question: 'Where do I sit in the building?',
    answer: 'fourth floor',
  },
  {
    fact: 'I keep three days of leave for the week between Christmas and New Year.',
    question: 'When do I like to save some of my vacation for?',
    answer: 'Christmas',
  },
  // Travel.
  { fact: 'My home airport is Boston Logan.', question: 'Which airport do I usually fly out of?', answer: 'Logan' },
  {
    fact: 'I always want an aisle seat.',
    question: 'Do I like sitting by the window or next to the corridor on planes?',
    answer: 'aisle',
  },
  {
    fact: 'My frequent flyer number with SkyAlliance is SA7741902.',
    question: 'What is my airline loyalty membership ID?',
    answer: 'SA7741902',
  },
  {
    fact: 'I prefer Marriott hotels and collect Bonvoy points.',
    question: 'Which hotel chain should you book for me?',
    answer: 'Marriott',
  },
  {
    fact: "I don't take red-eye flights.",
    question: 'Are there departure times I refuse to travel at?',
    answer: 'red-eye',
  },
  {
    fact: 'My passport expires in three years.',
    question: 'How long is my travel document still valid?',
    answer: 'three years',
  },
  { fact: 'I have TSA PreCheck.', question: 'Do I get the fast security lane at US airports?', answer: 'PreCheck' },
  {
    fact: 'When I travel for work I rent cars from Hertz.',
    question: 'Which rental company do I use on business trips?',
    answer: 'Hertz',
  },
  {
    fact: 'I prefer trains to planes for journeys under four hours.',
    question: 'How do I like to get to places that are close by?',
    answer: 'trains',
  },
  {
    fact: "I'm allergic to feathers, so I need synthetic pillows.",
    question: 'Is there anything special I need for bedding where I stay?',
    answer: 'synthetic',
  },
  {
    fact: 'My emergency contact is my brother, Marcus Lee, on +1 617 555 0142.',
    question: 'Who should be called if something happens to me on a trip?',
    answer: 'Marcus Lee',
  },
  {
    fact: 'I like to be at the airport two hours before departure.',
    question: 'How early do I want to get there before my plane leaves?',
    answer: 'two hours',
  },
  {
    fact: 'I get motion sick, so I sit over the wing.',
    question: 'Where on the aircraft should I be placed because of nausea?',
    answer: 'over the wing',
  },
  {
    fact: 'The travel policy caps my hotel nights at 180 euros.',
    question: "What's the most I can spend per night on accommodation?",
    answer: '180 euros',
  },
  {
    fact: 'I travel with my dog, a small terrier called Biscuit.',
    question: 'Do I bring a pet when I go away?',
    answer: 'Biscuit',
  },
  {
    fact: 'I fly British Airways to London.',
    question: 'Which carrier do I choose when going to the UK?',
    answer: 'British Airways',
  },
  {
    fact: 'I want a quiet room on a high floor, away from the lifts.',
    question: 'What should you ask for when I check in?',
    answer: 'high floor',
  },
  { fact: 'I only eat halal food.', question: 'What meal should the airline give me?', answer: 'halal' },
  // Shopping.
  { fact: 'My shirt size is medium, slim fit.', question: 'What size tops should you order for me?', answer: 'medium' },
  { fact: 'I wear size 43 shoes.', question: 'What footwear size do I take?', answer: '43' },
  { fact: "I'm vegetarian.", question: 'Is there any food I avoid?', answer: 'vegetarian' },
  { fact: "I'm lactose intolerant.", question: 'Can I have milk or cheese?', answer: 'lactose' },
  {
    fact: 'Deliver my parcels to the front desk of my building.',
    question: 'Where should packages be left when they arrive?',
    answer: 'front desk',
  },
  {
    fact: 'My shipping address is 12 Harbour Street, Apartment 5B, Portland.',
    question: 'Where should you send the things I buy?',
    answer: 'Harbour Street',
  },
  { fact: 'I pay with my Visa ending in 4417.', question: 'Which card do I use for purchases?', answer: '4417' },
  {
    fact: "I don't want anything made of leather.",
    question: 'Are there materials I avoid in bags and belts?',
    answer: 'leather',
  },
  {
    fact: 'My favourite colour for clothes is navy blue.',
    question: 'What colour should I pick when buying a jacket?',
    answer: 'navy',
  },
  {
    fact: 'Keep my spending on gadgets under 200 dollars a month.',
    question: "What's my monthly budget for electronics?",
    answer: '200 dollars',
  },
  {
    fact: 'I buy my coffee beans from Hollow Oak Roasters.',
    question: 'Where do I get my coffee from?',
    answer: 'Hollow Oak',
  },
  {
    fact: 'Gift wrap everything I order for my niece Sofia.',
    question: "Should presents for my sister's daughter come wrapped?",
    answer: 'Sofia',
  },
  { fact: "I'm allergic to peanuts.", question: 'Which nuts must my snacks not contain?', answer: 'peanuts' },
  {
    fact: 'Use my Amazon Prime account for household orders.',
    question: 'Which online store membership do I have for things for the home?',
    answer: 'Amazon Prime',
  },
  {
    fact: 'We are a household of four: two adults and two kids.',
    question: 'How many people live in my home?',
    answer: 'four',
  },
];
