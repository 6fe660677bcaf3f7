import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CreditLedgerEntity } from './credit-ledger.entity';

export * from './account.entity';
export * from './api-key.entity';
export * from './credit-ledger.entity';

/** Every entity the data source knows. Add new entities here. */
export const ENTITIES = [AccountEntity, ApiKeyEntity, CreditLedgerEntity];
