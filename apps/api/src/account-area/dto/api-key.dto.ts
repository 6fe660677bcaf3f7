import { Text } from '@app/gateway';

/** POST /account/v1/api-keys: a label of 1-100 characters after trimming. */
export class CreateOwnApiKeyDto {
  @Text(100, { api: { description: 'What the key is for (shown as meta.key_name on /usage)' } })
  label: string;
}
