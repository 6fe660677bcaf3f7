import { BodyInt, PG_INT_MAX, VerbatimText } from '@app/gateway';

/** POST /account/v1/gsc/properties: a site of one of the account's Google connections. */
export class AddGscPropertyDto {
  @BodyInt(1, PG_INT_MAX, {
    api: { description: 'A connection of GET /account/v1/gsc/connections' },
  })
  connection_id: number;

  @VerbatimText(2048, {
    api: {
      description: 'One of the connection’s sites, as listed',
      example: 'sc-domain:example.com',
    },
  })
  site_url: string;
}
