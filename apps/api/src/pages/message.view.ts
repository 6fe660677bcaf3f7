/** The model of pages/views/message: a short page for an error of a page itself (an expired form). */
export interface MessagePage {
  title: string;
  message: string;
  /** A path on this site. */
  link: string;
  linkText: string;
}

export const MESSAGE_PAGE = 'pages/views/message';
