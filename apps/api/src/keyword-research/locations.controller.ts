import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, CostGroup } from '@app/gateway';
import { MARKETS, SUPPORTED_LANGUAGES, locationRecord } from '@app/providers';
import { LocationsAnswerSchema } from './keyword-research.schema';

const NOTE =
  'Country-level markets accepted by POST /keyword-research as location_code. language_code is the ' +
  `market's primary language when it is one of ${SUPPORTED_LANGUAGES.join(', ')}, else en. A request in a ` +
  "language the market does not offer is answered in the market's language, echoed as data.language_code.";

const LOCATIONS = MARKETS.map(locationRecord);

@ApiTags('research')
@CostGroup('other')
@Controller('api/v1/keyword-research/locations')
export class LocationsController {
  @Get()
  @ApiOperation({
    summary: 'The markets keyword research accepts',
    description:
      'Every location_code POST /keyword-research accepts, with its name, country and the language ' +
      'applied by default. Any other location_code is refused with 422 UNSUPPORTED_LOCATION.',
  })
  @ApiAnswer(LocationsAnswerSchema)
  list() {
    return { locations: LOCATIONS, count: LOCATIONS.length, note: NOTE };
  }
}
