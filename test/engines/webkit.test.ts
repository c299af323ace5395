// @vitest-environment node
import { hostedJourneys } from './hosted';
import { journeys } from './journeys';
import { onePerFile } from './support/page';
import { startWebKit } from './support/webkit';

const start = onePerFile(startWebKit);
journeys('webkit', start);
hostedJourneys('webkit', start);
