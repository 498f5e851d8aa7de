/**
 * The {@code wharf} command line: {@code namesrv}, {@code broker} and {@code standalone} run servers in the
 * foreground until the process is asked to stop (SIGTERM or Ctrl-C stops them gracefully); {@code admin} holds the
 * administration commands (sub-package {@code admin}). Built on picocli; the runnable jar's entry point is
 * {@link dev.wharf.server.WharfMain}.
 */
package dev.wharf.server;
