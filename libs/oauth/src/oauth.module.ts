import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ClientMetadataFetcher } from './client-metadata-fetcher';
import { OAuthClientsRepository } from './oauth-clients.repository';
import { OAuthClientsService } from './oauth-clients.service';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { OAuthGrantsService } from './oauth-grants.service';
import { OAUTH_SETTINGS } from './oauth-settings';
import { RegistrationThrottle } from './registration-throttle';

/**
 * The OAuth 2.1 authorization server's storage and rules (clients, grants, codes, tokens).
 * The importing app provides OAUTH_SETTINGS (issuer, resource, scopes) through `register`.
 */
@Module({})
export class OAuthLibraryModule {
  /** `settings` provides OAUTH_SETTINGS. */
  static register(settings: Provider): DynamicModule {
    return {
      module: OAuthLibraryModule,
      providers: [
        settings,
        ClientMetadataFetcher,
        OAuthClientsRepository,
        OAuthClientsService,
        OAuthGrantsRepository,
        OAuthGrantsService,
        RegistrationThrottle,
      ],
      exports: [OAuthClientsService, OAuthGrantsService, RegistrationThrottle, OAUTH_SETTINGS],
    };
  }
}
