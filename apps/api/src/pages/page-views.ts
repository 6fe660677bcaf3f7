import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import Handlebars from 'handlebars';
import { API_SRC_DIR, PageAssets } from './page-assets';

/**
 * The view layer of every server-rendered page (docs/decisions/0002-page-views.md).
 *
 * Templates are Handlebars files in a `views/` folder beside their feature; the template of
 * `account-area/views/console.hbs` is named `account-area/views/console`. Handlebars escapes
 * every `{{value}}` for HTML; raw output needs triple braces (`{{{`), which no template uses
 * (a unit test keeps it so). A `views/partials` folder holds partials, named by file name:
 * the shared layout and links in pages/views/partials, a feature's own beside its views.
 *
 * Only the built-in block helpers and `asset` (an asset's hashed URL) may be used: templates
 * are compiled with knownHelpersOnly, so a typo is a start-up error, not a blank on a page.
 * Every template is parsed when the process starts, so a syntax error stops the start too.
 */
const COMPILE_OPTIONS: CompileOptions = {
  knownHelpers: { asset: true },
  knownHelpersOnly: true,
  // A view model's own members only: never a prototype's (Handlebars' default too).
  strict: false,
};

type CompileOptions = Parameters<typeof Handlebars.compile>[1];

/** What Express adds to the view model; it never reaches a template. */
const EXPRESS_LOCALS = ['settings', '_locals', 'cache'];

export const VIEW_EXTENSION = 'hbs';
/** A template in a `views/partials` folder is a partial, named by its file name. */
const PARTIAL = new RegExp(`(^|\\${sep})views\\${sep}partials\\${sep}[^\\${sep}]+$`);

/** Every `*.hbs` under a `views` folder below root, as paths relative to root. */
export function templateFiles(root = API_SRC_DIR): string[] {
  const found: string[] = [];
  const walk = (dir: string, inViews: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, inViews || entry.name === 'views');
      else if (inViews && entry.name.endsWith(`.${VIEW_EXTENSION}`))
        found.push(relative(root, path));
    }
  };
  walk(root, false);
  return found.sort();
}

export class PageViews {
  private readonly hb = Handlebars.create();
  private readonly templates = new Map<string, Handlebars.TemplateDelegate>();

  constructor(
    private readonly assets: PageAssets,
    readonly root = API_SRC_DIR,
  ) {
    this.hb.registerHelper('asset', (name: unknown) => this.assets.url(String(name)));
    for (const file of templateFiles(root)) {
      const source = readFileSync(join(root, file), 'utf8');
      try {
        this.hb.parse(source);
      } catch (err) {
        throw new Error(`Template ${file}: ${(err as Error).message}`);
      }
      const name = file
        .slice(0, -(VIEW_EXTENSION.length + 1))
        .split(sep)
        .join('/');
      if (PARTIAL.test(file)) {
        this.hb.registerPartial(basename(name), this.hb.compile(source, COMPILE_OPTIONS));
      } else {
        this.templates.set(name, this.hb.compile(source, COMPILE_OPTIONS));
      }
    }
  }

  /** The names of the page templates (partials excluded). */
  names(): string[] {
    return [...this.templates.keys()];
  }

  /** A page as HTML. The model's values are escaped by the templates. */
  render(name: string, model: object): string {
    const template = this.templates.get(name);
    if (!template) throw new Error(`Unknown page template "${name}"`);
    return template(model, { allowProtoPropertiesByDefault: false });
  }

  /**
   * The Express view engine (`res.render(name, model)`): Express resolves the name to the
   * file's path below the views folder (API_SRC_DIR), and its own locals are dropped.
   */
  readonly engine = (
    filePath: string,
    options: object,
    callback: (err: Error | null, html?: string) => void,
  ): void => {
    try {
      const name = relative(this.root, filePath)
        .slice(0, -(VIEW_EXTENSION.length + 1))
        .split(sep)
        .join('/');
      const model: Record<string, unknown> = { ...options };
      for (const key of EXPRESS_LOCALS) delete model[key];
      callback(null, this.render(name, model));
    } catch (err) {
      callback(err as Error);
    }
  };
}
