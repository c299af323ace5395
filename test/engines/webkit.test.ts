// @vitest-environment node
import { hostedJourneys } from './hosted';
import { journeys } from './journeys';
import { startWebKit } from './support/webkit';

journeys('webkit', startWebKit);
hostedJourneys('webkit', startWebKit);
