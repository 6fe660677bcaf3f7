import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@app/gateway';
import { MARKETS, SUPPORTED_LANGUAGES, locationRecord } from '@app/providers';
import { LocationsAnswerSchema } from './keyword-research.schema';

const NOTE =
  'Country-level markets accepted by POST /keyword-research as location_code. language_code is the ' +
  `market's primary language when it is one of ${SUPPORTED_LANGUAGES.join(', ')}, else en. A request in a ` +
  "language the market does not offer is answered in the market's language, echoed as data.language_code.";

const LOCATIONS = MARKETS.map(locationRecord);

@ApiTags('research')
@Controller('api/v1/keyword-research/locations')
export class LocationsController {
  @Get()
  @Endpoint({
    operationId: 'listLocations',
    summary: 'The markets keyword research accepts',
    description:
      'Every location_code POST /keyword-research accepts, with its name, country and the language ' +
      'applied by default. Any other location_code is refused with 422 UNSUPPORTED_LOCATION.',
    group: 'other',
    answer: LocationsAnswerSchema,
    errors: [],
    cost: 'One API call. No feature quota, no credits.',
    sample: {
      typescript: [
        'const { data } = await client.locations();',
        'console.log(data.count, data.locations[0]);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    client: 'locations',
    mcp: 'list_locations',
  })
  list() {
    return { locations: LOCATIONS, count: LOCATIONS.length, note: NOTE };
  }
}
