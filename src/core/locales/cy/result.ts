import type { PaymentResultMessages } from '../../catalogue';

/** The result page, in Welsh (what each is for: PaymentResultMessages). */
export const result: PaymentResultMessages = {
  // "i’ch banc gadarnhau": the verb after "i" and its subject softens (cadarnhau → gadarnhau).
  waiting: 'Yn aros i’ch banc gadarnhau…',
  waitingText: 'Fel arfer, mae hyn yn cymryd ychydig eiliadau. Cadwch y dudalen hon ar agor.',
  stillConfirming: 'Mae eich banc yn dal i gadarnhau’r taliad hwn',
  // "neu fwy": mwy softens after "neu". The page (tudalen) is feminine: "ohoni ei hun".
  stillConfirmingText:
    'Gall hyn gymryd ychydig funudau neu fwy. Gallwch gau’r dudalen hon heb effeithio ar eich taliad. Os yw hi’n dal ar agor, bydd yn diweddaru ohoni ei hun.',
  received: 'Taliad wedi’i dderbyn',
  receivedText: 'Diolch. Mae eich banc wedi cadarnhau eich taliad.',
  notCompleted: 'Taliad heb ei gwblhau',
  notCompletedText:
    'Nid yw eich banc wedi cwblhau’r taliad, felly nid oes arian wedi’i gymryd. Gallwch roi cynnig arall arni.',
  needsReview: 'Mae angen i ni wirio’r taliad hwn',
  // "â thalu": talu takes the aspirate mutation after "â".
  needsReviewText:
    'Bydd y siop yn ei wirio ac yn cysylltu â chi. Peidiwch â thalu eto yn y cyfamser.',
  paidAmount: 'Swm',
  // "Talwyd": talu's impersonal past, as a receipt writes it ("was paid to").
  paidTo: 'Talwyd i',
  paidReference: 'Cyfeirnod',
  tryAgain: 'Rhowch gynnig arall arni',
  notHeard: 'Nid ydym wedi clywed gan eich banc eto',
  // The shop (siop) is feminine: "dweud wrthi".
  notHeardText:
    'Edrychwch ar eich ap bancio. Os yw’r taliad yno, nid oes dim rhagor i’w wneud: bydd y siop yn ei gadarnhau cyn gynted ag y bydd eich banc yn dweud wrthi. Os nad yw yno, nid oes arian wedi’i gymryd.',
  checkAgain: 'Gwirio eto',
  notFound: 'Ni allwn ddod o hyd i’ch taliad',
  // "Ni chafodd": cafodd takes the aspirate mutation after "Ni"; its object softens (fanylion).
  notFoundText:
    'Ni chafodd y dudalen hon fanylion taliad. Os gwnaethoch dalu, edrychwch ar eich ap bancio neu cysylltwch â’r siop.',
};
