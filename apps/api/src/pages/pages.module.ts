import { Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AssetsController } from './assets.controller';
import { PageAssets } from './page-assets';
import { PageViews, VIEW_EXTENSION } from './page-views';

/**
 * The page kit shared by the account area, the OAuth pages and the site-audit report: the
 * view layer (PageViews), the asset files and their route, page headers, forms and CSRF.
 */
@Module({
  controllers: [AssetsController],
  providers: [
    { provide: PageAssets, useFactory: () => new PageAssets() },
    {
      provide: PageViews,
      useFactory: (assets: PageAssets) => new PageViews(assets),
      inject: [PageAssets],
    },
  ],
  exports: [PageAssets, PageViews],
})
export class PagesModule {}

/** Makes PageViews the app's view engine (`res.render`), the NestJS MVC way. */
export function installPages(app: NestExpressApplication): void {
  const views = app.get(PageViews);
  app.engine(VIEW_EXTENSION, views.engine);
  app.setBaseViewsDir(views.root);
  app.setViewEngine(VIEW_EXTENSION);
  // Express looks a view's file up once, not on every render.
  app.set('view cache', true);
}
