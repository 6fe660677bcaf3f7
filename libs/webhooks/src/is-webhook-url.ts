import { ValidationArguments, registerDecorator } from 'class-validator';
import { webhookUrlProblem } from './webhook-url';

/**
 * A webhook_url as POST /site-audit and the usage alerts take it (syntax, webhookUrlProblem;
 * the host is checked later, assertWebhookTarget).
 */
export function IsWebhookUrl(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => webhookUrlProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) =>
          webhookUrlProblem(args?.value) ?? 'webhook_url is invalid',
      },
    });
}
