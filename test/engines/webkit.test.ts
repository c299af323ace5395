// @vitest-environment node
import { journeys } from './journeys';
import { startWebKit } from './support/webkit';

journeys('webkit', startWebKit);
