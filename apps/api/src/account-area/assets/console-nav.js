// @ts-check
/*
 * The console's section navigation (#console-nav): plain anchors that work without this
 * script; here the link of the section being read gets aria-current="true" as the page
 * scrolls (and on a phone the current link is scrolled into the navigation's row).
 */
'use strict';
{
  const nav = document.getElementById('console-nav');
  /** @type {Map<string, HTMLAnchorElement>} */
  const links = new Map();
  if (nav) {
    nav.querySelectorAll('a[href^="#"]').forEach(function (a) {
      if (a instanceof HTMLAnchorElement) links.set(a.hash.slice(1), a);
    });
  }
  /** @type {HTMLElement[]} */
  const sections = [];
  links.forEach(function (_a, id) {
    const section = document.getElementById(id);
    if (section) sections.push(section);
  });

  /** @param {string} id */
  function markCurrent(id) {
    links.forEach(function (a, key) {
      if (key === id) {
        if (a.getAttribute('aria-current') !== 'true') {
          a.setAttribute('aria-current', 'true');
          const row = a.closest('ul');
          if (row && row.scrollWidth > row.clientWidth) {
            row.scrollLeft = a.offsetLeft - (row.clientWidth - a.offsetWidth) / 2;
          }
        }
      } else {
        a.removeAttribute('aria-current');
      }
    });
  }

  /** The last section whose top has passed just under the sticky navigation. */
  function currentSection() {
    const line = (nav ? nav.getBoundingClientRect().bottom : 0) + 24;
    /** @type {HTMLElement | null} */
    let current = null;
    for (const section of sections) {
      if (section.getBoundingClientRect().top <= line) current = section;
    }
    // At the very bottom, the last section is the one being read even if its top is lower.
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
      current = sections[sections.length - 1] || current;
    }
    return current;
  }

  let queued = false;
  function update() {
    queued = false;
    const section = currentSection();
    if (section) markCurrent(section.id);
    else markCurrent('');
  }
  function schedule() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(update);
  }

  if (sections.length > 0) {
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    window.addEventListener('hashchange', schedule);
    links.forEach(function (a, id) {
      a.addEventListener('click', function () {
        // Move focus into the section for keyboard and screen-reader users.
        const target = document.getElementById(id);
        if (target && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        markCurrent(id);
      });
    });
    update();
  }
}
