/**
 * What every {@code wharf} command shares: its exit codes and the exception that carries one with a one-line
 * message. Below both the foreground commands ({@code dev.wharf.server}) and the administration commands
 * ({@code dev.wharf.server.admin}), so that neither package depends on the other through them.
 */
package dev.wharf.server.cli;
