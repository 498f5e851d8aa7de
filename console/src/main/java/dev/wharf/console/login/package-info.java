/**
 * Who may use the console: users from a file in the broker's users-file format, a read-only or admin role each,
 * a session cookie, a CSRF token for every change, and a brake on repeated failed sign-ins. Without a users file
 * the console is open, which it allows on loopback only (or with {@code --insecure}).
 */
package dev.wharf.console.login;
