/**
 * What the demo library holds: fiber documents (PDFs the seed generates, with text a search finds
 * inside them), a short field video, pictures and a link, in the three demo departments, in demo
 * courses and for everyone. Data only; `seed-library.ts` stores it through the library's own
 * repository and the shared storage.
 */

/** Where an item is visible: everyone, a demo department (by name) or a demo course (by id). */
export type DemoScope =
  | { type: 'everyone' }
  | { type: 'department'; department: string }
  | { type: 'course'; courseId: string };

export interface DemoDocument {
  kind: 'pdf';
  title: string;
  fileName: string;
  category: string;
  tags: string[];
  scope: DemoScope;
  /** Who added it (a demo username). */
  addedBy: string;
  description: string;
  /** The PDF's paragraphs; a blank line starts a new section. */
  paragraphs: string[];
}

export interface DemoMedia {
  kind: 'video' | 'image';
  title: string;
  fileName: string;
  category: string;
  tags: string[];
  scope: DemoScope;
  addedBy: string;
  description: string;
  /** For images: SVG that the seed renders to PNG; for a video: the asset's file name. */
  source: string;
}

export interface DemoLink {
  kind: 'link';
  title: string;
  url: string;
  category: string;
  tags: string[];
  scope: DemoScope;
  addedBy: string;
  description: string;
}

export type DemoLibraryItem = DemoDocument | DemoMedia | DemoLink;

export const DEMO_LIBRARY_CATEGORIES = [
  'Procedures',
  'Safety',
  'Test and measurement',
  'Network design',
  'Customer care',
  'Training media',
] as const;

/** The TIA-598 fibre colour code, in order. */
const FIBRE_COLOURS: readonly [string, string][] = [
  ['Blue', '#1f5fbf'],
  ['Orange', '#f28c28'],
  ['Green', '#2e9d4a'],
  ['Brown', '#8a5a2b'],
  ['Slate', '#708090'],
  ['White', '#f4f4f4'],
  ['Red', '#d33a2c'],
  ['Black', '#1b1b1b'],
  ['Yellow', '#f2d024'],
  ['Violet', '#7d4fb3'],
  ['Rose', '#f4a6b8'],
  ['Aqua', '#35c4c9'],
];

function colourChartSvg(): string {
  const rows = FIBRE_COLOURS.map(([name, hex], i) => {
    const y = 70 + i * 34;
    const text = name === 'Black' || name === 'Brown' || name === 'Violet' ? '#fff' : '#111';
    return (
      `<rect x="40" y="${y}" width="420" height="28" rx="6" fill="${hex}" stroke="#333"/>` +
      `<text x="56" y="${y + 20}" font-family="sans-serif" font-size="16" fill="${text}">${i + 1}. ${name}</text>`
    );
  }).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="500" height="500" viewBox="0 0 500 500">` +
    `<rect width="500" height="500" fill="#fbfbf8"/>` +
    `<text x="40" y="44" font-family="sans-serif" font-size="22" font-weight="bold" fill="#0b1e33">Fibre colour code (TIA-598)</text>` +
    rows +
    `</svg>`
  );
}

function connectorSvg(): string {
  const connector = (x: number, label: string, face: string, colour: string) =>
    `<rect x="${x}" y="90" width="150" height="70" rx="8" fill="${colour}" stroke="#222"/>` +
    `<rect x="${x + 150}" y="112" width="60" height="26" fill="#ddd" stroke="#222"/>` +
    `<text x="${x}" y="200" font-family="sans-serif" font-size="18" fill="#111">${label}</text>` +
    `<text x="${x}" y="226" font-family="sans-serif" font-size="14" fill="#333">${face}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="280" viewBox="0 0 560 280">` +
    `<rect width="560" height="280" fill="#fbfbf8"/>` +
    `<text x="24" y="44" font-family="sans-serif" font-size="22" font-weight="bold" fill="#0b1e33">SC/UPC and SC/APC connectors</text>` +
    connector(24, 'SC/UPC (blue)', 'flat polished end face', '#2f6fd0') +
    connector(300, 'SC/APC (green)', '8° angled end face', '#2e9d4a') +
    `<text x="24" y="262" font-family="sans-serif" font-size="14" fill="#a11">Never mate APC with UPC: the angle leaves an air gap and high loss.</text>` +
    `</svg>`
  );
}

export const DEMO_LIBRARY: readonly DemoLibraryItem[] = [
  {
    kind: 'pdf',
    title: 'Splice closure preparation procedure',
    fileName: 'splice-closure-procedure.pdf',
    category: 'Procedures',
    tags: ['splicing', 'closure', 'procedure'],
    scope: { type: 'department', department: 'Field Operations' },
    addedBy: 'instructor',
    description:
      '<p>Step by step: opening a dome closure, preparing the cable sheath and routing buffer tubes to the splice trays.</p>',
    paragraphs: [
      'Scope. This procedure covers the preparation of a dome splice closure for a 144-fibre loose tube cable before fusion splicing.',
      'Tools. Cable sheath stripper, buffer tube cutter, Kevlar scissors, isopropyl alcohol wipes, heat-shrink protection sleeves and a calibrated fusion splicer.',
      '',
      'Step 1. Mark the sheath 2.5 m from the cable end and remove it with the sheath stripper. Do not score the buffer tubes.',
      'Step 2. Cut back the aramid yarn and the central strength member to the length given on the closure template, and clamp the strength member in the closure base.',
      'Step 3. Clean the gel from each buffer tube with gel cleaner, never with solvent on bare fibre.',
      'Step 4. Route each buffer tube to its tray in colour order (blue, orange, green, brown, slate, white) and secure it with tie wraps without crushing the tube.',
      '',
      'Step 5. Strip 40 mm of each buffer tube inside the tray, clean the fibres and cleave at 10 mm. Record each splice in the splice log with its estimated loss.',
      'Acceptance. A fusion splice with an estimated loss above 0.10 dB is remade. The closure is sealed only after an OTDR trace from both directions.',
    ],
  },
  {
    kind: 'pdf',
    title: 'OTDR trace interpretation guide',
    fileName: 'otdr-trace-guide.pdf',
    category: 'Test and measurement',
    tags: ['otdr', 'testing', 'troubleshooting'],
    scope: { type: 'everyone' },
    addedBy: 'instructor',
    description:
      '<p>How to read an OTDR trace: events, dead zones, ghosts and the figures that go in the acceptance report.</p>',
    paragraphs: [
      'An optical time-domain reflectometer sends short pulses into the fibre and measures the light scattered and reflected back. The trace shows distance along the fibre against returned power.',
      'Launch cable. Always test with a launch cable of at least 500 m so that the first connector is outside the dead zone of the instrument.',
      '',
      'Reflective events are spikes: connectors, mechanical splices and the fibre end. Non-reflective events are steps down: fusion splices and macrobends.',
      'A gainer is an apparent gain at a splice between fibres of different mode field diameter. Average the loss measured from both directions before you judge it.',
      'A ghost is an echo of a strong reflection that appears at a multiple of its distance. It shows no loss after it and moves when the pulse width changes.',
      '',
      'Attenuation of single-mode fibre is about 0.35 dB/km at 1310 nm and 0.22 dB/km at 1550 nm. A bend shows more loss at 1550 nm than at 1310 nm.',
      'Report the length, the total loss, the loss and reflectance of every event, and the optical return loss of the link.',
    ],
  },
  {
    kind: 'pdf',
    title: 'Manhole and confined space entry rules',
    fileName: 'manhole-entry-rules.pdf',
    category: 'Safety',
    tags: ['safety', 'manhole', 'confined space'],
    scope: { type: 'everyone' },
    addedBy: 'admin',
    description:
      '<p>The company rules for entering manholes and other confined spaces. Read before your first underground job.</p>',
    paragraphs: [
      'A manhole is a confined space. Nobody enters it alone, and a trained attendant stays at the opening for the whole time anyone is inside.',
      'Before entry, ventilate for at least ten minutes and test the atmosphere with a calibrated four-gas detector: oxygen between 19.5 % and 23.5 %, flammable gas below 10 % of the lower explosive limit, carbon monoxide below 25 ppm and hydrogen sulfide below 10 ppm.',
      '',
      'Keep the gas detector running at chest height while you work. Leave at once when it alarms, and do not go back in until the space has been ventilated and tested again.',
      'Set up traffic cones and a barrier around the opening. Use the tripod and winch for any manhole deeper than 1.5 m.',
      'Never smoke or use an open flame in or near a manhole. Laser light from live fibre can damage eyes: never look into a fibre end or connector.',
    ],
  },
  {
    kind: 'pdf',
    title: 'GPON service provisioning checklist',
    fileName: 'gpon-provisioning-checklist.pdf',
    category: 'Network design',
    tags: ['gpon', 'olt', 'provisioning'],
    scope: { type: 'department', department: 'Network Engineering' },
    addedBy: 'admin',
    description: '<p>The checks an engineer makes when turning up a new GPON subscriber.</p>',
    paragraphs: [
      'Confirm the ONT serial number against the work order and register it on the OLT port of the subscriber splitter.',
      'Apply the line profile and the service profile of the product: internet VLAN 100, voice VLAN 200, IPTV multicast VLAN 300.',
      '',
      'Check the optical receive power at the ONT: between -8 dBm and -27 dBm. Below -27 dBm, clean and inspect the drop connectors before anything else.',
      'Verify the DHCP lease, the PPPoE session where used, and a speed test from the ONT. Record the results in the activation ticket.',
    ],
  },
  {
    kind: 'pdf',
    title: 'No-service call script for first-line support',
    fileName: 'no-service-call-script.pdf',
    category: 'Customer care',
    tags: ['support', 'troubleshooting', 'ont'],
    scope: { type: 'department', department: 'Customer Support' },
    addedBy: 'admin',
    description:
      '<p>What to ask and check when a subscriber calls because the internet is down.</p>',
    paragraphs: [
      'Greet the caller, confirm the account and the installation address, and ask when the service stopped working.',
      'Ask the caller to read the lights on the ONT. A red LOS light means the fibre signal is lost: book a technician visit, do not ask the caller to touch the fibre cable.',
      '',
      'If the PON light is green and the internet light is off, restart the router first and then the ONT, waiting two minutes between them.',
      'Escalate to Network Engineering when several subscribers on the same splitter report the same fault within an hour.',
    ],
  },
  {
    kind: 'pdf',
    title: 'Splice loss lab worksheet',
    fileName: 'splice-loss-lab-worksheet.pdf',
    category: 'Test and measurement',
    tags: ['splicing', 'lab', 'loss budget'],
    scope: { type: 'course', courseId: 'fiber-splicing-101' },
    addedBy: 'instructor',
    description:
      '<p>For the Fiber Splicing Fundamentals lab: record the estimated and the measured loss of ten splices.</p>',
    paragraphs: [
      'Lab worksheet for Fiber Splicing Fundamentals (FO-101).',
      'Make ten fusion splices on the practice spool. For each splice write down the splicer estimate and the bidirectional OTDR average.',
      '',
      'Work out the difference between estimate and measurement. Explain any splice where the two differ by more than 0.05 dB.',
      'Hand the completed worksheet to your instructor with the splice tray for inspection.',
    ],
  },
  {
    kind: 'video',
    title: 'Fusion splicing in two minutes',
    fileName: 'fusion-splicing-demo.webm',
    category: 'Training media',
    tags: ['splicing', 'video'],
    scope: { type: 'department', department: 'Field Operations' },
    addedBy: 'instructor',
    description:
      '<p>A short clip of the splicer closing the gap, the arc, and the loss estimate it shows afterwards.</p>',
    source: 'fusion-splicing-demo.webm',
  },
  {
    kind: 'image',
    title: 'Fibre colour code chart',
    fileName: 'fibre-colour-code.png',
    category: 'Procedures',
    tags: ['colour code', 'splicing'],
    scope: { type: 'everyone' },
    addedBy: 'instructor',
    description: '<p>The twelve fibre and buffer tube colours of TIA-598, in order.</p>',
    source: colourChartSvg(),
  },
  {
    kind: 'image',
    title: 'SC/UPC and SC/APC connectors',
    fileName: 'sc-upc-apc-connectors.png',
    category: 'Network design',
    tags: ['connectors', 'apc'],
    scope: { type: 'everyone' },
    addedBy: 'admin',
    description: '<p>Tell the two apart by colour and end face before you mate them.</p>',
    source: connectorSvg(),
  },
  {
    kind: 'link',
    title: 'ITU-T G.652: single-mode optical fibre',
    url: 'https://www.itu.int/rec/T-REC-G.652',
    category: 'Network design',
    tags: ['standards', 'fibre'],
    scope: { type: 'everyone' },
    addedBy: 'admin',
    description:
      '<p>The recommendation that defines standard single-mode fibre and its attenuation limits.</p>',
  },
];
