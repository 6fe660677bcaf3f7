import { NewPassword, Text, VerbatimText } from '@app/gateway';

export class SignInDto {
  @Text(320, { api: { example: 'you@example.com' } })
  email: string;

  /** Checked as given (not trimmed); its length is not judged here (a wrong one is a 401). */
  @VerbatimText(1024, { api: { format: 'password' } })
  password: string;
}

export class ChangePasswordDto {
  @VerbatimText(1024, { api: { format: 'password' } })
  current_password: string;

  @NewPassword()
  new_password: string;
}
