import { IsEmail } from 'class-validator';
import { NewPassword, Rules, Text } from '@app/gateway';

export class CreateUserDto {
  /** Stored trimmed, in the case given; unique across the service in any case. */
  @Rules(
    Text(254, { api: { example: 'person@example.com' } }),
    IsEmail({}, { message: 'email must be an email address' }),
  )
  email: string;

  @NewPassword()
  password: string;
}
