// @ts-check
/*
 * The console's "Password" section: changes the password (the other sessions are signed
 * out). Helpers and types: console-common.js.
 */
/* global SeoConsole */
'use strict';
{
  const C = SeoConsole;
  const passwordForm = C.$('password-form', HTMLFormElement);

  /**
   * The first problem of the typed passwords (its message and the field to fix), or null.
   * @param {HTMLInputElement} current
   * @param {HTMLInputElement} next
   * @param {HTMLInputElement} again
   * @returns {{ message: string, field: HTMLInputElement } | null}
   */
  function passwordProblem(current, next, again) {
    if (!current.value) return { message: 'Enter your current password.', field: current };
    if (next.value.length < 12 || next.value.length > 256) {
      return { message: 'The new password must have 12 to 256 characters.', field: next };
    }
    if (next.value !== again.value) {
      return { message: 'The two new passwords differ.', field: again };
    }
    return null;
  }

  /**
   * The message shown for a refused change (the API's, or a plainer one for a 422).
   * @param {ApiFailure} err
   */
  function refusal(err) {
    if (err.status === 422 && /current_password/.test(err.message)) {
      return 'Your current password is not correct.';
    }
    if (err.status === 422 && /new_password/.test(err.message)) {
      return 'The new password must have 12 to 256 characters.';
    }
    return err.message;
  }

  function changePassword() {
    const out = C.$('password-status', HTMLElement);
    const current = C.$('current-password', HTMLInputElement);
    const next = C.$('new-password', HTMLInputElement);
    const again = C.$('confirm-password', HTMLInputElement);
    const problem = passwordProblem(current, next, again);
    if (problem) {
      C.say(out, problem.message, 'error');
      problem.field.focus();
      return;
    }
    const body = { current_password: current.value, new_password: next.value };
    C.whileSubmitting(passwordForm, function () {
      return C.api('POST', '/password', body, { keep401: true }).then(
        function () {
          passwordForm.reset();
          C.say(out, 'Password changed. Your other sessions were signed out.', 'ok');
        },
        /** @param {ApiFailure} err */
        function (err) {
          C.say(out, refusal(err), 'error');
          current.focus();
        },
      );
    });
  }

  passwordForm.addEventListener('submit', function (event) {
    event.preventDefault();
    changePassword();
  });
}
