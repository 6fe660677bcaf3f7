import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError } from '@app/core';
import { hasApiAccess } from '@app/plans';
import { ApiRequest } from './request-context';

/** API access needs the Pro or Agency plan: free and starter get 403 FORBIDDEN. */
@Injectable()
export class PlanGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const auth = context.switchToHttp().getRequest<ApiRequest>().auth;
    if (!auth) return true; // public route
    if (!hasApiAccess(auth.plan)) {
      throw new ApiError(
        'FORBIDDEN',
        `The ${auth.plan} plan has no API access. Upgrade to Pro or Agency to use the API.`,
      );
    }
    return true;
  }
}
