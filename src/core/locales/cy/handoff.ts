import type { HandoffMessages } from '../../catalogue';

/** The handoff panel and the bank step's extras, in Welsh (what each is for: HandoffMessages). */
export const handoff: HandoffMessages = {
  handoffHeading: 'Sganiwch gyda’ch ffôn',
  // "Anelwch gamera": the object of a command softens (camera → gamera).
  handoffText: (bank) =>
    `Anelwch gamera eich ffôn at y cod, yna cymeradwywch y taliad yn ap ${bank}.`,
  qrAlt: (bank) => `Cod QR sy’n agor ${bank} ar eich ffôn`,
  linkIntro: 'Methu sganio? Agorwch y cyfeiriad hwn ar eich ffôn:',
  // "yng nghyfeiriad": cyfeiriad takes the nasal mutation after "yn".
  loopbackNote:
    'Ni all ffôn agor y cyfeiriad hwn: mae ar y cyfrifiadur hwn yn unig. I sganio, dechreuwch y blwch tywod gyda --host 0.0.0.0 ac agorwch y dudalen hon yng nghyfeiriad rhwydwaith y cyfrifiadur hwn.',
  continueHere: 'Parhau ar y cyfrifiadur hwn',
  handoffWaiting:
    'Cadwch y dudalen hon ar agor. Bydd yn diweddaru pan fyddwch wedi cymeradwyo’r taliad.',
  lastUsed: 'Defnyddiwyd ddiwethaf',
  forgetBank: 'Anghofio’r banc hwn',
  bankForgotten: 'Ni fyddwn yn cofio eich banc.',
  featured: 'Banciau poblogaidd',
  allBanks: 'Pob banc',
};
